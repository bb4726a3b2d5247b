/** The round trip of the shared js-yaml-flow-error case (a file of its own: see round-trip.ts). */
import { loadShared, roundTripTest } from "./round-trip.js";

roundTripTest({ grammar: "javascript", input: "js-yaml-flow-error/input.js" }, loadShared);
