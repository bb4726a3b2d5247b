import type { PlannedStep } from "../passes/pipeline.js";
import type { StatsSummary } from "./stats-file.js";
import {
  atomSchedule,
  DEFAULT_TREE_SCHEDULE,
  describeSchedule,
  skippedBecause,
  type StepCondition,
  type StepDdmin,
} from "../passes/schedule.js";

/**
 * The default schedule (passes/schedule.ts) as the command shows it: in --help, on the start line,
 * and in the --stats file.
 */

/**
 * A schedule's description after `first`, in lines of at most `width` characters where its steps
 * allow, broken before an arrow, continuation lines indented by `indent`.
 */
function wrap(first: string, description: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = first;
  description.split(" → ").forEach((piece, i) => {
    if (i === 0) line += piece;
    else if (line.length + 3 + piece.length > width) {
      lines.push(line);
      line = `${indent}→ ${piece}`;
    } else line += ` → ${piece}`;
    // A step too long for a line has its algorithm in brackets on the next one.
    const bracket = line.lastIndexOf(" [");
    if (line.length > width && bracket > indent.length + 2) {
      lines.push(line.slice(0, bracket));
      line = `${indent}  ${line.slice(bracket + 1)}`;
    }
  });
  lines.push(line);
  return lines;
}

/** The "Default pipeline" section of --help. */
export function scheduleHelp(): string {
  const withGrammar = wrap("  with a grammar: ", describeSchedule(DEFAULT_TREE_SCHEDULE), 100, "    ");
  return [
    "Default pipeline (--phase replaces it; with --algorithm every step uses that algorithm):",
    ...withGrammar,
    `  without one: ${describeSchedule(atomSchedule("both"))} (as --atom says; ddmin unless --algorithm)`,
  ].join("\n");
}

/** Why a planned step does not run on an input of `inputBytes` bytes, when that is known now. */
function skipped(planned: PlannedStep, inputBytes: number): string | undefined {
  return skippedBecause(planned.step, { ...planned.facts, inputBytes });
}

/**
 * The passes for the start line ("reducing with …"): their names, in order, each one its condition
 * will skip marked "(skipped: input under 64 KiB)".
 */
export function passesText(
  pipeline: readonly string[],
  schedule: readonly PlannedStep[] | undefined,
  inputBytes: number,
): string {
  if (schedule === undefined) return pipeline.join(", ");
  return schedule
    .flatMap((planned) => {
      if (planned.pass === undefined) return [];
      const why = skipped(planned, inputBytes);
      return [why === undefined ? planned.pass : `${planned.pass} (skipped: ${why})`];
    })
    .join(", ");
}

/** A step of the schedule in the --stats file. */
export interface ScheduleRecord {
  phase: string;
  /** The pass's name; null when the step is left out of the pipeline (rename without a built-in language). */
  pass: string | null;
  algorithm: string;
  condition: StepCondition | null;
  ddmin: StepDdmin | null;
  reason: string;
  /** "ran": the pass started; "skipped": its condition did not hold; "not run": the run ended first. */
  status: "ran" | "skipped" | "not run";
  /** With "skipped": why. */
  why?: string;
}

/**
 * The schedule of a run for --stats: each step as data, and whether it ran (`ran`: the passes that
 * started, by name). A step whose condition held at the start but not when it came (the input it
 * started from was under its limit) is "not run".
 */
export function scheduleRecords(
  schedule: readonly PlannedStep[],
  inputBytes: number,
  ran: (pass: string) => boolean,
): ScheduleRecord[] {
  return schedule.map((planned) => {
    const { step } = planned;
    const why = skipped(planned, inputBytes);
    return {
      phase: step.phase,
      pass: planned.pass ?? null,
      algorithm: step.algorithm,
      condition: step.condition ?? null,
      ddmin: step.ddmin ?? null,
      reason: step.reason,
      ...(why !== undefined
        ? { status: "skipped" as const, why }
        : {
            status: planned.pass !== undefined && ran(planned.pass) ? ("ran" as const) : ("not run" as const),
          }),
    };
  });
}

/** `summary` with the run's schedule (none with --phase): a step ran when its pass has statistics. */
export function withSchedule(
  summary: StatsSummary,
  plan: { readonly schedule: readonly PlannedStep[] | undefined; readonly input: Uint8Array },
): StatsSummary {
  if (plan.schedule === undefined) return summary;
  const passes = summary.stats?.passes ?? {};
  return {
    ...summary,
    schedule: scheduleRecords(plan.schedule, plan.input.length, (pass) => pass in passes),
  };
}
