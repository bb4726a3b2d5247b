/** Removability against the parser (removability.ts), for the first half of the built-in languages. */
import { test } from "node:test";
import { checkRemovability, LANGUAGE_HALVES } from "./removability.js";

const languages = LANGUAGE_HALVES[0]!;
test(`removing a node whose slot is removable keeps the input parseable: ${languages.join(", ")}`, async (t) => {
  await checkRemovability(t, languages);
});
