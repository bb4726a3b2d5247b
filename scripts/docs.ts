/** Writes the README's options table from the command's options (see src/cli/options-table.ts). */
import { readFileSync, writeFileSync } from "node:fs";
import { buildProgram } from "../src/cli/args.js";
import { optionsTable, withOptionsTable } from "../src/cli/options-table.js";

const readme = new URL("../../README.md", import.meta.url);
const text = readFileSync(readme, "utf8");
writeFileSync(readme, withOptionsTable(text, optionsTable(buildProgram("0"))));
