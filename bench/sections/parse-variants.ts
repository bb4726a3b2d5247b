/** How the parse section's child runs ANTLR's lookahead DFAs and V8's heap (see parse-child.ts). */
export const PARSE_VARIANTS = ["default", "unbounded", "antlr4ng"] as const;
export type ParseVariant = (typeof PARSE_VARIANTS)[number];
