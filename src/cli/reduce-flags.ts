import { InvalidArgumentError, Option, type OptionValues } from "commander";
import { ComputedDefault, type AnyOptionSpec } from "../reduce/option-spec.js";
import { DEFAULTS, OPTION_LIST, type ResolvedOptions } from "../reduce/options.js";

/**
 * The reduction's options as the command line gives them: each flag's value, or the default from
 * the table, but none for a default that reduce() computes when it resolves them (-j).
 */
export type CliReduceOptions = typeof DEFAULTS & Partial<ResolvedOptions>;

/** The commander options of every option of the reduction (REDUCE_OPTIONS), in the table's order. */
export function reductionFlags(): Option[] {
  return OPTION_LIST.flatMap(([name, spec]) =>
    Object.entries(spec.cli).map(([flags, help]) => flag(name, spec, flags, help)),
  );
}

/** The reduction's options from what commander parsed (see CliReduceOptions). */
export function reduceOptionsOf(values: OptionValues): CliReduceOptions {
  return Object.fromEntries(OPTION_LIST.map(([name]) => [name, values[name] as unknown])) as CliReduceOptions;
}

/** One flag of an option: its help, and its default, choices or check. */
function flag(name: string, spec: AnyOptionSpec, flags: string, help: string): Option {
  const computed = spec.default instanceof ComputedDefault ? spec.default : undefined;
  const option = new Option(
    flags,
    computed ? `${help} (default: ${computed.onCommandLine ?? computed.describe})` : help,
  );
  if (option.attributeName() !== name) throw new Error(`the flag ${flags} does not set the option ${name}`);
  // A negated switch (--no-x) gets its default from the switch that turns it on, or is on.
  if (option.negate) return option;
  if (option.isBoolean()) {
    const shown = typeof spec.default === "boolean" ? (spec.default ? "on" : "off") : String(spec.default);
    return option.default(spec.default, shown);
  }
  if (spec.choices) option.choices(spec.choices);
  else option.argParser(argumentParser(spec));
  if (computed) return option;
  return option.default(spec.default, spec.show ? String(spec.show(spec.default)) : undefined);
}

/** Parses a flag's argument with the option's check; commander reports a failure as "… is invalid. must be …". */
function argumentParser(spec: AnyOptionSpec): (text: string) => unknown {
  return (text) => {
    const value = spec.check(spec.fromText ? spec.fromText(text) : text);
    if (value === undefined) throw new InvalidArgumentError(`must be ${spec.expected}.`);
    return value;
  };
}
