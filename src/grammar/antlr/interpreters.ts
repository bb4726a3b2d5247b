/**
 * antlr4ng's lexer and parser interpreters, specialised for whittle:
 * - predicates and custom lexer actions written as helper calls run through the grammar helpers
 *   (predicates.ts; helpers mixed in over these classes);
 * - the parser records, per rule context, which runs of children one iteration of a `?`, `*` or `+`
 *   block produced (the removable units of HDD), by watching the ATN states it walks through.
 */
import {
  ATNState,
  BaseErrorListener,
  BlockEndState,
  BlockStartState,
  InterpreterRuleContext,
  LexerInterpreter,
  ParserInterpreter,
  PlusBlockStartState,
  type ATNSimulator,
  type DecisionState,
  type ParserRuleContext,
  type RecognitionException,
  type Recognizer,
  type Token,
} from "antlr4ng";
import { boundDfa, useExactDfas } from "./dfa.js";
import type { LexerClass, ParserClass } from "./helpers/types.js";
import { invokeHelper, type HelperCall } from "./predicates.js";

/** Which grammar construct a run of children came from. `+` is any iteration but the first. */
export type Quantifier = "?" | "*" | "+";

/** Children [start, end) of a rule context produced by one iteration of a quantified block. */
export interface ChildGroup {
  readonly start: number;
  readonly end: number;
  readonly quantifier: Quantifier;
}

interface OpenGroup {
  readonly block: BlockStartState;
  readonly start: number;
  readonly quantifier: Quantifier;
}

/**
 * A rule context that remembers its quantified child groups. The lists are made when first needed:
 * most contexts (the long chains of expression rules) have none, and a large input has millions.
 */
export class TrackedRuleContext extends InterpreterRuleContext {
  groups: ChildGroup[] | undefined;
  open: OpenGroup[] | undefined;
}

/** Told of each rule context the moment its subtree is complete (see `RuleDoneHook`). */
export type RuleDone = (ctx: ParserRuleContext) => void;

/**
 * The parser's hook for complete subtrees: `onRuleDone` is called when a rule is left (`exitRule`)
 * and when a left-recursive rule's nest of contexts is unrolled (`unrollRecursionContexts`: the
 * outermost context, which holds the inner ones), after ANTLR has finished with the context. The
 * context's subtree is then complete and ANTLR does not look into it again, so the caller may take
 * its children away (the tree converter does, so that the whole parse tree never exists at once).
 */
export interface RuleDoneHook {
  onRuleDone: RuleDone | undefined;
}

/** The parser's bound on one decision's lookahead DFA, in configurations (see dfa.ts). */
export interface DfaBound {
  maxDfaConfigurations: number;
}

/** Predicate and action calls by index (null: not a helper call, ignored). */
export interface HelperCalls {
  readonly predicates: readonly (HelperCall | null)[];
  readonly actions: readonly (HelperCall | null)[];
}

export function lexerBaseClass(calls: HelperCalls): LexerClass {
  return class WhittleLexer extends LexerInterpreter {
    constructor(...args: ConstructorParameters<typeof LexerInterpreter>) {
      super(...args);
      useExactDfas(this.interpreter);
    }

    override sempred(_ctx: ParserRuleContext | null, _rule: number, predIndex: number): boolean {
      const call = calls.predicates[predIndex];
      return call ? invokeHelper(this, call) : true;
    }

    override action(_ctx: ParserRuleContext | null, _rule: number, actionIndex: number): void {
      const call = calls.actions[actionIndex];
      if (call) invokeHelper(this, call);
    }
  };
}

/**
 * The default bound on one decision's DFA, in ATN configurations held by its states (see dfa.ts).
 * Chosen by hand measurement, one parse each (heap growth then held to 30 %): csmith's 579 KiB of C
 * with C.g4 peaked at 436 MiB with this bound and 545 MiB at 250,000 (3,300 MiB unbounded); the two
 * 130 KB JavaScript cases parse about a quarter slower than unbounded (23.6 and 26.6 s against 18.7
 * and 21.7 s; 22.3 and 24.3 s at 250,000), at the same peak RSS, which their parse's garbage
 * decides, not the DFA.
 */
export const MAX_DFA_CONFIGURATIONS = 100_000;

const stateType = (s: ATNState): number => (s.constructor as typeof ATNState).stateType;

export function parserBaseClass(calls: HelperCalls): ParserClass {
  return class WhittleParser extends ParserInterpreter implements RuleDoneHook, DfaBound {
    private previousState: ATNState | null = null;
    onRuleDone: RuleDone | undefined = undefined;
    /** How many configurations one decision's DFA may hold before it starts afresh (see dfa.ts). */
    maxDfaConfigurations = MAX_DFA_CONFIGURATIONS;

    constructor(...args: ConstructorParameters<typeof ParserInterpreter>) {
      super(...args);
      useExactDfas(this.interpreter);
    }

    protected override visitDecisionState(p: DecisionState): number {
      // Only decisions with a choice are predicted (the others have no DFA: decision -1).
      if (p.transitions.length > 1) boundDfa(this.interpreter, p.decision, this.maxDfaConfigurations);
      return super.visitDecisionState(p);
    }

    override exitRule(): void {
      const ctx = this.context;
      super.exitRule();
      if (ctx !== null) this.onRuleDone?.(ctx);
    }

    override unrollRecursionContexts(parent: ParserRuleContext | null): void {
      const ctx = this.context;
      super.unrollRecursionContexts(parent);
      if (ctx !== null) this.onRuleDone?.(ctx);
    }

    override sempred(_ctx: ParserRuleContext | null, _rule: number, predIndex: number): boolean {
      const call = calls.predicates[predIndex];
      return call ? invokeHelper(this, call) : true;
    }

    override reset(): void {
      super.reset();
      this.previousState = null;
    }

    protected override createInterpreterRuleContext(
      parent: ParserRuleContext | null,
      invokingStateNumber: number,
      ruleIndex: number,
    ): InterpreterRuleContext {
      return new TrackedRuleContext(ruleIndex, parent, invokingStateNumber);
    }

    protected override visitState(p: ATNState): void {
      const type = stateType(p);
      if (type === ATNState.BLOCK_END) this.closeGroup(p);
      const previous = this.previousState;
      super.visitState(p);
      this.previousState = p;
      switch (type) {
        case ATNState.STAR_BLOCK_START:
          this.openGroup(p as BlockStartState, "*");
          break;
        case ATNState.PLUS_BLOCK_START:
          // Entered again from its loop-back state: a second or later iteration.
          if (previous !== null && previous === (p as PlusBlockStartState).loopBackState) {
            this.openGroup(p as BlockStartState, "+");
          }
          break;
        case ATNState.BLOCK_START: {
          // An optional block has an alternative that skips straight to its end.
          const block = p as BlockStartState;
          const end = block.endState;
          if (end && this.state !== end.stateNumber && block.transitions.some((t) => t.target === end)) {
            this.openGroup(block, "?");
          }
          break;
        }
      }
    }

    private openGroup(block: BlockStartState, quantifier: Quantifier): void {
      const ctx = this.context;
      if (ctx instanceof TrackedRuleContext) {
        (ctx.open ??= []).push({ block, start: ctx.children.length, quantifier });
      }
    }

    private closeGroup(end: BlockEndState): void {
      const ctx = this.context;
      if (!(ctx instanceof TrackedRuleContext)) return;
      const top = ctx.open?.at(-1);
      if (top === undefined || top.block !== end.startState) return;
      ctx.open!.pop();
      if (ctx.children.length > top.start) {
        (ctx.groups ??= []).push({ start: top.start, end: ctx.children.length, quantifier: top.quantifier });
      }
    }
  };
}

/** A syntax error as reported by the lexer or the parser. */
export interface SyntaxErrorInfo {
  /** 1-based line. */
  readonly line: number;
  /** 1-based column, in characters (code points). */
  readonly column: number;
  /** The offending token's text, or null for a lexer error (the message then quotes the characters). */
  readonly offendingText: string | null;
  readonly message: string;
}

export class CollectingErrorListener extends BaseErrorListener {
  readonly errors: SyntaxErrorInfo[] = [];

  override syntaxError<S extends Token, T extends ATNSimulator>(
    _recognizer: Recognizer<T>,
    offendingSymbol: S | null,
    line: number,
    charPositionInLine: number,
    msg: string,
    _e: RecognitionException | null,
  ): void {
    this.errors.push({
      line,
      column: charPositionInLine + 1,
      offendingText: offendingSymbol ? (offendingSymbol.text ?? null) : null,
      message: msg,
    });
  }
}
