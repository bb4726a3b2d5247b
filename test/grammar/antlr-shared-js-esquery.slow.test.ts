/** The round trip of the shared js-esquery-syntax-error case (a file of its own: see round-trip.ts). */
import { loadShared, roundTripTest } from "./round-trip.js";

roundTripTest({ grammar: "javascript", input: "js-esquery-syntax-error/input.js" }, loadShared);
