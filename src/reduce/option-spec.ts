/**
 * How an option is declared: once, with all that the library and the command line need to know
 * about it. The table of the reduction's options, and what is derived from it, is REDUCE_OPTIONS
 * (options.ts).
 */

/** A default computed when the options are resolved (from the machine, say), described for --help. */
export class ComputedDefault<T> {
  constructor(
    /** The default as --help states it: "available parallelism". */
    readonly describe: string,
    readonly compute: () => T,
    /** The command line's default when it differs from the library's (--help shows it instead). */
    readonly onCommandLine?: string,
  ) {}
}

/**
 * One option. `In` is what a caller may give, `Out` what the reduction uses (they differ for the
 * split factor, whose "inf" is resolved to Infinity), `Default` the type of the default.
 */
export interface OptionSpec<In, Out = In, Default extends Out | ComputedDefault<Out> = Out> {
  readonly default: Default;
  /**
   * The option's flags on the command line, each with its help line, as --help lists them: one flag
   * that takes a value (`"--atom <kind>"`), or switches (`"--dd-star"`, `"--no-dd-star"`). A flag
   * must name the option: commander stores `--dd-star` and `--no-dd-star` as `ddStar`.
   */
  readonly cli: Readonly<Record<string, string>>;
  /** What a value must be, for error messages ("expected …", "must be …"): "a whole number ≥ 1". */
  readonly expected: string;
  /** The allowed values, when there is a list of them (--help shows it). */
  readonly choices?: readonly (Out & string)[];
  /**
   * The value as the reduction uses it, or undefined when `value` is not one the option accepts. A
   * JavaScript caller may pass anything, whatever the type says, so this checks at run time. (A
   * method, so that options of different types can be handled alike: see AnyOptionSpec.)
   */
  check(value: In): Out | undefined;
  /** The value of a flag's argument, for `check` (default: its text as it is). */
  fromText?(text: string): unknown;
  /** How a value is written in --help and in --stats (default: as it is). */
  show?(value: Out): string | number | boolean;
}

/** Any option, for code that handles every option of a table alike. */
export type AnyOptionSpec = OptionSpec<unknown, unknown, unknown>;

type Flags = Readonly<Record<string, string>>;

/** An option whose value is one of `choices`. */
export function oneOf<T extends string>(
  choices: readonly T[],
  spec: { default: T; cli: Flags },
): OptionSpec<T> {
  return {
    ...spec,
    choices,
    expected: `one of ${choices.join(", ")}`,
    check: (value) => (choices.includes(value) ? value : undefined),
  };
}

/** An option that is on or off: `--name` switches it on, `--no-name` off (commander's convention). */
export function onOff(spec: { default: boolean; cli: Flags }): OptionSpec<boolean> {
  return {
    ...spec,
    expected: "true or false",
    check: (value) => (typeof value === "boolean" ? value : undefined),
  };
}

/** An option whose value is a whole number ≥ `min`; on the command line, digits only. */
export function wholeNumber<D extends number | ComputedDefault<number>>(
  min: number,
  spec: { default: D; cli: Flags },
): OptionSpec<number, number, D> {
  return {
    ...spec,
    expected: `a whole number ≥ ${min}`,
    check: (value) => (Number.isSafeInteger(value) && value >= min ? value : undefined),
    fromText: (text) => (/^\d+$/.test(text) ? Number(text) : undefined),
  };
}

/** An option of another kind: the declaration spelled out, `In` and `Out` given explicitly. */
export function option<In, Out = In>(spec: OptionSpec<In, Out>): OptionSpec<In, Out> {
  return spec;
}
