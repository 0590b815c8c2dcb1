/**
 * What a custom attribute's `regex_pattern` may cost. The runtime's regular expressions backtrack and
 * cannot be interrupted, and values are matched inside the request (an anonymous widget visitor's
 * included): `^(a+)+$` against 1,500 "a"s and a "!" never finishes, and `^(?:(?:a|a){20}){20}$` takes
 * seconds on 31 characters. So a pattern is read into a small syntax tree and its worst case bounded.
 *
 * A backtracking matcher makes, from each start position, at most one attempt per *path* through the
 * pattern: a branch at each alternation and a count at each repetition. For each part of the pattern we
 * bound the attempts it may make (T) and how many of them may go on to what follows (S):
 * - a sequence a·rest: T = T(a) + S(a) × T(rest), S = S(a) × S(rest); an alternation sums its branches;
 * - a repetition of one fixed path (`\d{4}`, `[a-z]*`, `(?:ab)+`) has min(hi, n) + 1 counts on a value
 *   of n characters, each of which may go on (S = T = n + 1 when unbounded): `^\d*\d*\d*x$` is cubic;
 * - unless it repeats one character class and what follows is a character it cannot match (`[^@]+@`) or
 *   the end (`\d+$`): then only the longest count can go on (S = 1), the others fail at once;
 * - a bounded repetition of a body with a choice (`(?:a|a){20}`) may take P^0 + P^1 + ... + P^hi paths
 *   (P the body's), each far dearer than a step of a simple loop (CHOICE_WEIGHT); bounds nest as products;
 * - an unbounded repetition (`*`, `+`, `{n,}`) of a body with a choice (an alternation or a variable
 *   repetition: `(a+)+`, `(a|aa)*`, `(\w+\s?)*`) can split a value in exponentially many ways, whatever
 *   its length: it is refused outright, and so are backreferences (matching them is NP-hard);
 * - an unanchored pattern is tried from every position: n + 1 times.
 *
 * A pattern is accepted only when the bound at the longest value accepted stays within
 * MAX_PATTERN_COST. Matching checks it again at the value's own length before running anything, so a
 * pattern stored before this check (or under an older one) cannot run away either.
 */

/** How a pattern may be refused: not a regular expression, or too slow; the message ends the 422 entry. */
export type PatternProblem = { message: string; code: "invalid_regex" | "slow_regex" | "too_long" };

/** A pattern read for its cost. */
export type PatternShape = {
  /** upper bound of the attempts a match of an n-character value may make */
  cost: (n: number) => number;
  /** a longer value cannot match (the pattern is anchored at both ends); Infinity when none */
  longestMatch: number;
};

/**
 * The most a match may cost, in steps of a simple loop: about 75 ms on a busy machine. Two overlapping
 * unbounded repetitions over the longest value ((1,500 + 1)^2 ≈ 2.3e6, 20 ms) fit; a third, or
 * `(?:a|a){19}` (16 × 2^20), does not.
 */
export const MAX_PATTERN_COST = 1e7;

/** A path through a repeated alternation costs the matcher about sixteen steps of a simple loop (measured). */
const CHOICE_WEIGHT = 16;

type Node =
  /**
   * One character, a class or an escape (`single`: it matches exactly one character, as `text` does);
   * an assertion has width 0 (`anchor` for ^ and $). `literal` is the one character a literal matches.
   */
  | { kind: "atom"; width: number; anchor?: "^" | "$"; single?: RegExp; literal?: string }
  | { kind: "group"; branches: Node[][]; lookaround: boolean }
  | { kind: "repeat"; body: Node; lo: number; hi: number };

class Refused extends Error {
  constructor(readonly problem: PatternProblem) {
    super(problem.message);
  }
}

const SLOW =
  "could take too long to match (a repeated group holds a repetition or an alternation, repetitions nest or follow each other too often, or a value can split too many ways)";
const slow = (): never => {
  throw new Refused({ message: SLOW, code: "slow_regex" });
};

/** Reads `source` (a body that the RegExp constructor accepted with `flags`) into its tree. */
class Reader {
  private i = 0;
  constructor(
    private readonly source: string,
    private readonly flags: string,
  ) {}

  /** One code point may take two code units when the pattern reads code points. */
  private get atomWidth() {
    return this.flags.includes("u") ? 2 : 1;
  }

  read(): Node[][] {
    const branches = this.alternatives();
    if (this.i < this.source.length) throw new Refused({ message: "is not a valid regular expression", code: "invalid_regex" });
    return branches;
  }

  private alternatives(): Node[][] {
    const branches: Node[][] = [this.sequence()];
    while (this.source[this.i] === "|") {
      this.i++;
      branches.push(this.sequence());
    }
    return branches;
  }

  private sequence(): Node[] {
    const nodes: Node[] = [];
    while (this.i < this.source.length && this.source[this.i] !== "|" && this.source[this.i] !== ")") {
      const atom = this.atom();
      nodes.push(this.quantified(atom));
    }
    return nodes;
  }

  private atom(): Node {
    const { source } = this;
    const ch = source[this.i];
    if (ch === "(") return this.group();
    const from = this.i;
    if (ch === "[") {
      this.characterClass();
      return { kind: "atom", width: this.atomWidth, single: this.matcher(from) };
    }
    if (ch === "\\") return this.escape();
    this.i++;
    if (ch === "^" || ch === "$") return { kind: "atom", width: 0, anchor: ch };
    // half of a surrogate pair is not a character of its own: no literal to compare
    const literal = ch === "." || /[\uD800-\uDFFF]/.test(ch) ? undefined : ch;
    return { kind: "atom", width: this.atomWidth, single: this.matcher(from), literal };
  }

  /** The atom read since `from`, alone, to ask which characters it matches. */
  private matcher(from: number): RegExp | undefined {
    try {
      return new RegExp(`^(?:${this.source.slice(from, this.i)})$`, this.flags.replace(/[gy]/g, ""));
    } catch {
      return undefined;
    }
  }

  private group(): Node {
    const rest = this.source.slice(this.i);
    const opening = /^\((?:\?(?:[:=!]|<[=!]|<[^>]*>|[a-z]*(?:-[a-z]*)?:))?/.exec(rest)![0];
    this.i += opening.length;
    const lookaround = /^\(\?<?[=!]$/.test(opening);
    const branches = this.alternatives();
    this.i++; // ")"
    return { kind: "group", branches, lookaround };
  }

  private characterClass() {
    let depth = 0;
    for (; this.i < this.source.length; this.i++) {
      const ch = this.source[this.i];
      if (ch === "\\") this.i++;
      else if (ch === "[" && depth === 0) depth++;
      else if (ch === "]" && --depth === 0) break;
    }
    this.i++;
  }

  private escape(): Node {
    const next = this.source[this.i + 1] ?? "";
    if (/[1-9]/.test(next) || next === "k") throw new Refused({ message: "may not use backreferences", code: "slow_regex" });
    const rest = this.source.slice(this.i);
    // \p{..} and \u{..} exist only when the pattern reads code points; elsewhere "\p" is a "p"
    const unicode = /^\\(?:[pP]\{[^}]*\}|u\{[0-9a-fA-F]+\})/.exec(rest);
    const escape = (this.flags.includes("u") && unicode) || /^\\(?:u[0-9a-fA-F]{4}|x[0-9a-fA-F]{2}|c[A-Za-z]|[\s\S])/.exec(rest)!;
    const from = this.i;
    this.i += escape[0].length;
    if (next === "b" || next === "B") return { kind: "atom", width: 0 };
    // outside unicode mode a "\c" without a letter is the two characters \ and c
    if (escape[0] === "\\c") return { kind: "atom", width: 2 };
    // \. \- \/ ... stand for their character; \d \w \s and the like for a class
    const literal = /^\\[^A-Za-z0-9]$/.test(escape[0]) ? escape[0][1] : undefined;
    return { kind: "atom", width: this.atomWidth, single: this.matcher(from), literal };
  }

  private quantified(atom: Node): Node {
    const rest = this.source.slice(this.i);
    const quantifier = /^(?:([*+?])|\{(\d+)(?:(,)(\d*))?\})\??/.exec(rest);
    if (!quantifier) return atom;
    this.i += quantifier[0].length;
    const [, symbol, low, comma, high] = quantifier;
    const lo = symbol ? (symbol === "+" ? 1 : 0) : Number(low);
    const hi = symbol ? (symbol === "?" ? 1 : Infinity) : comma ? (high === "" ? Infinity : Number(high)) : Number(low);
    if (hi === Infinity && hasChoice(atom)) slow();
    return this.quantified({ kind: "repeat", body: atom, lo, hi });
  }
}

/** Whether a node can match in more than one way: an alternation, or a repetition of variable count. */
function hasChoice(node: Node): boolean {
  if (node.kind === "atom") return false;
  if (node.kind === "repeat") return node.lo !== node.hi || hasChoice(node.body);
  return node.branches.length > 1 || node.branches.some((branch) => branch.some(hasChoice));
}

/** The most code units a node can match. */
function widest(node: Node): number {
  if (node.kind === "atom") return node.width;
  if (node.kind === "repeat") {
    const body = widest(node.body);
    return body === 0 || node.hi === 0 ? 0 : node.hi * body;
  }
  if (node.lookaround) return 0;
  return Math.max(...node.branches.map((branch) => branch.reduce((sum, n) => sum + widest(n), 0)));
}

type Bound = { attempts: number; goOn: number };

/** A product where nothing times "past counting" is nothing (never NaN). */
const times = (a: number, b: number) => (a === 0 || b === 0 ? 0 : a * b);

/**
 * A repetition of one character class followed by a character it cannot match, or by the end: only its
 * longest count can go on.
 */
function guarded(node: Node, next: Node | undefined, multiline: boolean): boolean {
  if (node.kind !== "repeat" || node.body.kind !== "atom" || !node.body.single) return false;
  if (next === undefined || next.kind !== "atom") return false;
  if (next.anchor === "$") return !multiline;
  return next.literal !== undefined && !node.body.single.test(next.literal);
}

/**
 * Attempts (T) and paths that go on (S) of `nodes[from..]` on a value of n code units; `follower` is
 * what comes after the sequence when that is known (the node after a group that is not repeated).
 */
function sequenceBound(nodes: Node[], from: number, n: number, multiline: boolean, follower?: Node): Bound {
  if (from === nodes.length) return { attempts: 0, goOn: 1 };
  const rest = sequenceBound(nodes, from + 1, n, multiline, follower);
  const node = nodes[from];
  const next = from + 1 < nodes.length ? nodes[from + 1] : follower;
  const own = guarded(node, next, multiline) ? { attempts: Math.min((node as { hi: number }).hi, n) + 1, goOn: 1 } : nodeBound(node, n, multiline, next);
  return { attempts: own.attempts + times(own.goOn, rest.attempts), goOn: times(own.goOn, rest.goOn) };
}

function nodeBound(node: Node, n: number, multiline: boolean, follower?: Node): Bound {
  if (node.kind === "atom") return { attempts: 1, goOn: 1 };
  if (node.kind === "group") {
    const branches = node.branches.map((branch) => sequenceBound(branch, 0, n, multiline, node.lookaround ? undefined : follower));
    return { attempts: branches.reduce((sum, b) => sum + b.attempts, 0), goOn: branches.reduce((sum, b) => sum + b.goOn, 0) };
  }
  if (!hasChoice(node.body)) {
    const counts = Math.min(node.hi, n) + 1;
    return { attempts: counts, goOn: counts };
  }
  if (node.hi === Infinity) return { attempts: Infinity, goOn: Infinity }; // refused while reading
  // 1 + P + P^2 + ... + P^hi, P the body's attempts
  // once through (`?`), the body is followed by what follows the repetition
  const body = nodeBound(node.body, n, multiline, node.hi <= 1 ? follower : undefined).attempts;
  let total = 0;
  let power = 1;
  for (let k = 0; k <= node.hi && total < Infinity; k++) {
    total += power;
    power *= body;
  }
  // an optional part (`?`, `{0,1}`) is a plain choice, not a repeated one
  const weight = node.hi > 1 ? CHOICE_WEIGHT : 1;
  return { attempts: weight * total, goOn: weight * total };
}

/**
 * Reads a pattern body compiled with `flags` (both already accepted by the RegExp constructor).
 * Throws a PatternProblem-carrying error for a refused shape.
 */
function shapeOf(body: string, flags: string): PatternShape {
  const top: Node = { kind: "group", branches: new Reader(body, flags).read(), lookaround: false };
  const multiline = flags.includes("m");
  const only = top.branches.length === 1 ? top.branches[0] : null;
  const isAnchor = (node: Node | undefined, anchor: "^" | "$") => node?.kind === "atom" && node.anchor === anchor;
  const startAnchored = (only !== null && !multiline && isAnchor(only[0], "^")) || flags.includes("y");
  const endAnchored = only !== null && !multiline && isAnchor(only[only.length - 1], "$");
  const longestMatch = startAnchored && endAnchored && only ? only.reduce((sum, node) => sum + widest(node), 0) : Infinity;
  return {
    cost: (n) => {
      const cost = (startAnchored ? 1 : n + 1) * nodeBound(top, n, multiline).attempts;
      return Number.isNaN(cost) ? Infinity : cost;
    },
    longestMatch,
  };
}

/** The shape of a `/body/flags` or bare pattern, its compiled form, or why it is refused. */
export function readPattern(pattern: string): { shape: PatternShape; regexp: RegExp } | { problem: PatternProblem } {
  const delimited = /^\/(.*)\/([a-z]*)$/s.exec(pattern);
  const body = delimited ? delimited[1] : pattern;
  const flags = delimited ? delimited[2] : "";
  // v-mode classes match strings (`[\q{a|aa}]`), alternations this reading does not see
  if (flags.includes("v")) return { problem: { message: "may not use the v flag", code: "invalid_regex" } };
  let regexp: RegExp;
  try {
    regexp = new RegExp(body, flags);
  } catch {
    return { problem: { message: "is not a valid regular expression", code: "invalid_regex" } };
  }
  try {
    return { shape: shapeOf(body, flags), regexp };
  } catch (error) {
    if (error instanceof Refused) return { problem: error.problem };
    throw error;
  }
}

export const SLOW_PATTERN_MESSAGE = SLOW;
