/**
 * The registry of built-in languages: one entry per language, with everything whittle needs to know
 * about it — the npm package that ships it, where the WASM and `grammar.json` are in that package,
 * the file extensions and shebang interpreters that choose it, the texts of its external-scanner
 * tokens, and the kinds of its string-literal pieces (for the glue rule).
 *
 * Every package is pinned exactly in package.json and was checked on Node 20 with web-tree-sitter
 * 0.25.10 (which loads language ABIs 13 to 15): it ships `tree-sitter-<name>.wasm` and
 * `src/grammar.json` (and `src/node-types.json`), the WASM loads, and a sample parses without an
 * error. The packages' `install` script (`node-gyp-build`) is for their native binding, which
 * whittle never loads; each tarball carries a linux-x64 prebuild, so the script builds and downloads
 * nothing, and with `npm ci --ignore-scripts` the languages work all the same.
 *
 * External tokens (made by a scanner in C, which `grammar.json` cannot describe) have a text here
 * only where one text is right wherever the token stands; the others have none, and a node whose
 * shortest text would need one keeps its own text as its replacement (always valid). Hidden external
 * tokens with a width (Python's newlines and indentation) leave their bytes in the
 * hidden text between tokens, so a removed node takes its line's indentation with it and the lines
 * that stay keep theirs.
 *
 * YAML's nodes are visible aliases of hidden rules (`block_mapping` is `_r_blk_map` or
 * `_br_blk_map`), and web-tree-sitter reports the alias as the grammar type: match.ts's nodeGroups
 * matches such a node against every rule of its alias. Nearly all YAML tokens come from the scanner
 * and have no text here, so YAML nodes mostly keep their own text as replacement; what HDD removes
 * are whole mapping pairs, sequence items, flow entries and values (`key: value` → `key:`).
 *
 * Python needs no more care than its hidden text: a removed statement takes the newline and
 * indentation before it, and the lines that stay keep theirs. But tree-sitter's Python grammar lets
 * a block be empty (`repeat(statement)`), which Python itself refuses: of the 220 single
 * replacements of the Python sample, 15 do not compile with CPython 3.11, every one an emptied
 * block (or a `try` without its only `except`), none an indentation error. A test that compiles the
 * candidate rejects those; one that only greps may keep them.
 *
 * Not built in (yet): Ruby (tree-sitter-ruby 0.23.1). Its WASM loads (ABI 14) and parses, but
 * most of its tokens (operators, string delimiters, symbols) come from the external scanner, and
 * on a sample two replacements gave invalid Ruby (an endless `def a=a`, a binary operator left
 * without an operand); it needs its scanner's texts worked out first.
 */

/** One built-in language. */
export interface LanguageSpec {
  /** As the user names it: `--language NAME`. */
  readonly name: string;
  /** As people write it: "JavaScript". */
  readonly title: string;
  /** The npm package that ships it. */
  readonly package: string;
  /** The folder of the language inside the package ("" for the root; "tsx" for TSX). */
  readonly dir: string;
  /** The WASM file, relative to the package's root. */
  readonly wasm: string;
  /** File extensions (with the dot, lower case) that choose the language. */
  readonly extensions: readonly string[];
  /** Interpreters of a `#!` line that choose it (version digits stripped: python3 → python). */
  readonly interpreters: readonly string[];
  /** The text of external-scanner tokens, where one text is right wherever the token stands. */
  readonly externalTexts: Readonly<Record<string, string>>;
  /** Kinds of the text pieces inside string literals: the glue rule never puts a space next to them. */
  readonly stringTextKinds: readonly string[];
  /**
   * Rules whose minimal text is given rather than derived, where the shortest derivation is not one
   * the language's tools take everywhere (PHP's `<?` needs short_open_tag; `<?php` always works).
   */
  readonly ruleTexts?: Readonly<Record<string, string>>;
  /**
   * For a shell: the characters that make up one word when they meet (all but the metacharacters).
   * Without it, words meet words and operators meet operators (see needsSpace in shortest.ts).
   */
  readonly wordCharacters?: RegExp;
  /**
   * The kinds of identifier tokens, for the rename pass, where the grammar's `word` rule and its
   * aliases are not them (see lexicon.ts): a grammar without a `word` rule (CSS), or one whose word
   * is every shell word (Bash, where command names and file names are words too).
   */
  readonly identifierKinds?: readonly string[];
  /**
   * Names are compared ignoring case (PHP's functions and classes; CSS's class names in quirks
   * mode): the rename pass never gives a name that differs from one in use by case alone.
   */
  readonly caseInsensitiveNames?: boolean;
  /**
   * Names spelled with a prefix that every one of them keeps (CSS's custom properties, `--muted`,
   * a `property_name` where declared and a `plain_value` where `var()` reads it): tokens of these
   * kinds whose text is the prefix and then an identifier are names too, renamed to the prefix and
   * a short name (`--a`).
   */
  readonly prefixedNames?: PrefixedNames;
  /**
   * The kinds of number literals, for the literal pass: a token, or a node whose first token is the
   * number (CSS's `10px`). Listed rather than derived: in grammar.json a number is a pattern like an
   * identifier's, and only its name tells them apart.
   */
  readonly numberKinds: readonly string[];
  /**
   * The kinds of string literals whose text between the first and last token (or, for a single
   * token, between its first and last character) is their content: what the literal pass empties.
   * Not those whose delimiters must agree with their content (C++ and Rust raw strings, heredocs),
   * nor character literals (`''` is no character).
   */
  readonly stringKinds: readonly string[];
  /**
   * Text of another language inside this one, parsed as that language (an island): a `child` token
   * of a `parent` node (HTML's script and style elements hold JavaScript and CSS).
   */
  readonly injections?: readonly Injection[];
}

/** Names with a prefix (LanguageSpec.prefixedNames). */
export interface PrefixedNames {
  readonly kinds: readonly string[];
  readonly prefix: string;
}

/** A token whose text is parsed by another built-in language (LanguageSpec.injections). */
export interface Injection {
  readonly parent: string;
  readonly child: string;
  /** A built-in language's name (a string here: the table of languages names them). */
  readonly language: string;
  /**
   * Whether the island's identifiers are names the rename pass may change (the host's lexicon takes
   * the island's identifier kinds): a script's names are its own, and all of them are renamed
   * together across the page's scripts. A style's class and id names are the markup's too
   * (`class="…"`), where a renaming cannot follow them: its numbers and strings are the host's
   * literals, its names are not.
   */
  readonly names: boolean;
  /**
   * Only where the island is an attribute's value and the attribute's name matches this (HTML's
   * event handlers, `onclick="…"`, `onload=init()`: a script in the markup). No replacement there
   * holds a character that would end the value. A space the glue puts between two tokens of an
   * unquoted value would end it: that candidate parses as another attribute and costs a test.
   */
  readonly attribute?: RegExp;
}

const JS_EXTERNALS = { _automatic_semicolon: ";", _ternary_qmark: "?", _template_chars: "" };

const TS_EXTERNALS = { ...JS_EXTERNALS, _function_signature_automatic_semicolon: ";" };

/** The languages, in the order `--list-languages` and the README show them. */
const TABLE = {
  javascript: {
    title: "JavaScript",
    package: "tree-sitter-javascript",
    dir: "",
    wasm: "tree-sitter-javascript.wasm",
    extensions: [".js", ".mjs", ".cjs", ".jsx"],
    interpreters: ["node", "nodejs"],
    externalTexts: JS_EXTERNALS,
    stringTextKinds: ["string_fragment"],
    numberKinds: ["number"],
    stringKinds: ["string"],
  },
  typescript: {
    title: "TypeScript",
    package: "tree-sitter-typescript",
    dir: "typescript",
    wasm: "tree-sitter-typescript.wasm",
    extensions: [".ts", ".mts", ".cts"],
    interpreters: ["ts-node"],
    externalTexts: TS_EXTERNALS,
    stringTextKinds: ["string_fragment"],
    numberKinds: ["number"],
    stringKinds: ["string"],
  },
  tsx: {
    title: "TSX",
    package: "tree-sitter-typescript",
    dir: "tsx",
    wasm: "tree-sitter-tsx.wasm",
    extensions: [".tsx"],
    interpreters: [],
    externalTexts: TS_EXTERNALS,
    stringTextKinds: ["string_fragment"],
    numberKinds: ["number"],
    stringKinds: ["string"],
  },
  json: {
    title: "JSON",
    package: "tree-sitter-json",
    dir: "",
    wasm: "tree-sitter-json.wasm",
    extensions: [".json"],
    interpreters: [],
    externalTexts: {},
    stringTextKinds: ["string_content"],
    numberKinds: ["number"],
    stringKinds: ["string"],
  },
  c: {
    title: "C",
    package: "tree-sitter-c",
    dir: "",
    wasm: "tree-sitter-c.wasm",
    extensions: [".c", ".h"],
    interpreters: [],
    externalTexts: {},
    stringTextKinds: ["string_content"],
    numberKinds: ["number_literal"],
    stringKinds: ["string_literal"],
  },
  cpp: {
    title: "C++",
    package: "tree-sitter-cpp",
    dir: "",
    wasm: "tree-sitter-cpp.wasm",
    extensions: [".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++"],
    interpreters: [],
    // A raw string's delimiter stands twice and must match: it has no text of its own here.
    externalTexts: { raw_string_content: "" },
    stringTextKinds: ["string_content", "raw_string_content"],
    numberKinds: ["number_literal"],
    stringKinds: ["string_literal"],
  },
  html: {
    title: "HTML",
    package: "tree-sitter-html",
    dir: "",
    wasm: "tree-sitter-html.wasm",
    extensions: [".html", ".htm", ".xhtml"],
    interpreters: [],
    // Tag names have none: a start tag's name must match its end tag's.
    externalTexts: { _implicit_end_tag: "", raw_text: "" },
    stringTextKinds: ["attribute_value"],
    numberKinds: [],
    stringKinds: ["quoted_attribute_value"],
    // A script element of another type (a template, JSON data) stays one token: see scriptIsJs.
    injections: [
      { parent: "script_element", child: "raw_text", language: "javascript", names: true },
      { parent: "style_element", child: "raw_text", language: "css", names: false },
      {
        parent: "quoted_attribute_value",
        child: "attribute_value",
        language: "javascript",
        names: true,
        attribute: /^on[a-z]+$/i,
      },
      {
        parent: "attribute",
        child: "attribute_value",
        language: "javascript",
        names: true,
        attribute: /^on[a-z]+$/i,
      },
    ],
  },
  css: {
    title: "CSS",
    package: "tree-sitter-css",
    dir: "",
    wasm: "tree-sitter-css.wasm",
    extensions: [".css"],
    interpreters: [],
    // The descendant combinator is whitespace: `a b`.
    externalTexts: { _descendant_operator: " ", _pseudo_class_selector_colon: ":" },
    stringTextKinds: ["string_content"],
    numberKinds: ["integer_value", "float_value"],
    stringKinds: ["string_value"],
    // Class, id and animation names: the rest (properties, tags, functions) are CSS's own words. A
    // class name is an `identifier` in whittle's tree (its class_name node is squeezed into it), as
    // a pseudo-class's name is, which a test will mostly refuse to see renamed.
    identifierKinds: ["class_name", "id_name", "keyframes_name", "identifier"],
    caseInsensitiveNames: true,
    // Custom properties are the stylesheet's own variables: `--text-muted: red` and `var(--text-muted)`.
    prefixedNames: { kinds: ["property_name", "plain_value"], prefix: "--" },
  },
  python: {
    title: "Python",
    package: "tree-sitter-python",
    dir: "",
    wasm: "tree-sitter-python.wasm",
    extensions: [".py", ".pyi", ".pyw"],
    interpreters: ["python", "pypy"],
    // An indent has no text that is right everywhere (it depends on the enclosing block's).
    externalTexts: {
      _newline: "\n",
      _dedent: "",
      string_start: '"',
      string_end: '"',
      _string_content: "",
    },
    stringTextKinds: ["string_content", "string_start", "string_end"],
    numberKinds: ["integer", "float"],
    stringKinds: ["string"],
  },
  java: {
    title: "Java",
    package: "tree-sitter-java",
    dir: "",
    wasm: "tree-sitter-java.wasm",
    extensions: [".java"],
    interpreters: [],
    externalTexts: {},
    stringTextKinds: ["string_fragment"],
    numberKinds: [
      "decimal_integer_literal",
      "hex_integer_literal",
      "octal_integer_literal",
      "binary_integer_literal",
      "decimal_floating_point_literal",
      "hex_floating_point_literal",
    ],
    stringKinds: ["string_literal"],
  },
  rust: {
    title: "Rust",
    package: "tree-sitter-rust",
    dir: "",
    wasm: "tree-sitter-rust.wasm",
    extensions: [".rs"],
    interpreters: [],
    externalTexts: {
      string_content: "",
      raw_string_literal_content: "",
      _raw_string_literal_start: 'r"',
      _raw_string_literal_end: '"',
      float_literal: "0.0",
    },
    stringTextKinds: ["string_content"],
    numberKinds: ["integer_literal", "float_literal"],
    stringKinds: ["string_literal"],
  },
  go: {
    title: "Go",
    package: "tree-sitter-go",
    dir: "",
    wasm: "tree-sitter-go.wasm",
    extensions: [".go"],
    interpreters: [],
    externalTexts: {},
    stringTextKinds: ["interpreted_string_literal_content", "raw_string_literal_content"],
    numberKinds: ["int_literal", "float_literal", "imaginary_literal"],
    stringKinds: ["interpreted_string_literal", "raw_string_literal"],
  },
  yaml: {
    title: "YAML",
    package: "@tree-sitter-grammars/tree-sitter-yaml",
    dir: "",
    wasm: "tree-sitter-yaml.wasm",
    extensions: [".yaml", ".yml"],
    interpreters: [],
    // Nearly every YAML token comes from the scanner, and its text depends on the indentation:
    // only the end of the input has a text that is right everywhere.
    externalTexts: { _eof: "" },
    stringTextKinds: [],
    numberKinds: ["integer_scalar", "float_scalar"],
    stringKinds: ["double_quote_scalar", "single_quote_scalar"],
  },
  php: {
    title: "PHP",
    package: "tree-sitter-php",
    dir: "php",
    wasm: "tree-sitter-php.wasm",
    extensions: [".php", ".phtml"],
    interpreters: ["php"],
    externalTexts: { _automatic_semicolon: ";", _eof: "", encapsed_string_chars: "" },
    ruleTexts: { php_tag: "<?php" },
    stringTextKinds: ["string_content", "string_value", "encapsed_string_chars"],
    numberKinds: ["integer", "float"],
    stringKinds: ["string", "encapsed_string"],
    caseInsensitiveNames: true,
  },
  bash: {
    title: "Bash",
    package: "tree-sitter-bash",
    dir: "",
    wasm: "tree-sitter-bash.wasm",
    extensions: [".sh", ".bash"],
    interpreters: ["bash", "sh", "dash", "ksh"],
    externalTexts: {
      _concat: "",
      _empty_value: "",
      _bare_dollar: "$",
      _immediate_double_hash: "##",
      _external_expansion_sym_hash: "#",
      _external_expansion_sym_bang: "!",
      _external_expansion_sym_equal: "=",
    },
    stringTextKinds: ["string_content", "raw_string", "heredoc_content", "ansi_c_string"],
    // `while` `{` is the word `while{`: anything but a metacharacter or a space joins a word.
    wordCharacters: /[^\s|&;()<>]/,
    numberKinds: ["number"],
    stringKinds: ["string", "raw_string"],
    identifierKinds: ["variable_name"],
  },
} satisfies Record<string, Omit<LanguageSpec, "name">>;

export type BuiltInLanguage = keyof typeof TABLE;

/** The built-in languages' names, in the table's order. */
export const BUILT_IN_LANGUAGES = Object.keys(TABLE) as BuiltInLanguage[];

/** The registry entry of a built-in language. */
export function languageSpec(name: BuiltInLanguage): LanguageSpec {
  return { name, ...TABLE[name] };
}

export function isBuiltInLanguage(name: string): name is BuiltInLanguage {
  return Object.hasOwn(TABLE, name);
}

/** The language a file extension (`.js`, any case) chooses, if any. */
export function languageOfExtension(extension: string): BuiltInLanguage | undefined {
  const wanted = extension.toLowerCase();
  return BUILT_IN_LANGUAGES.find((name) => TABLE[name].extensions.some((e) => e === wanted));
}

/**
 * The language that the `#!` line at the start of `input` names, if any: `#!/bin/bash`,
 * `#!/usr/bin/env python3`, `#!/usr/bin/env -S node --flag`. Version digits after the interpreter's
 * name are ignored (python3.12 is python).
 */
export function languageOfShebang(input: Uint8Array): BuiltInLanguage | undefined {
  if (input[0] !== 0x23 || input[1] !== 0x21) return undefined; // "#!"
  const end = input.indexOf(0x0a);
  const line = new TextDecoder().decode(input.subarray(2, end < 0 ? Math.min(input.length, 256) : end));
  const words = line.trim().split(/\s+/);
  let program = words[0] ?? "";
  if (program.endsWith("/env") || program === "env") {
    // env's own options come before the program: `env -S node --flag`.
    program = words.slice(1).find((w) => !w.startsWith("-")) ?? "";
  }
  const name = program
    .slice(program.lastIndexOf("/") + 1)
    .replace(/[\d.]+$/, "")
    .toLowerCase();
  if (name === "") return undefined;
  return BUILT_IN_LANGUAGES.find((language) => TABLE[language].interpreters.some((i) => i === name));
}
