/* symattn: reading an answer as a student writes it, in the page.
 *
 * A port of symattn's Python reader of answers (symattn/load/lexer.py, grammar.py and
 * readings.py, the answers profile), so that the self-check page reads every entry exactly
 * as `symattn check` does: the same tokens, the same grammar, and the same midpoint-radius
 * arithmetic in decimals of 60 significant digits, rounded half to even at every step as
 * Python's decimal module rounds (sums, products, quotients and square roots correctly
 * rounded; e^x and ln x computed with 30 guard digits, then rounded).  Nothing is ever
 * evaluated as JavaScript.
 *
 *   readAnswer("≈ 1,41")  → {value: Dec 1.41, radius: Dec 0.01, places: 2}
 *   readAnswer("oops")    → throws a ReadError
 *
 * Loaded by the page as a plain script (it defines SymattnReader) and by Node for the
 * tests (module.exports).
 */
(function (root) {
  "use strict";

  // -- decimals ---------------------------------------------------------------------------
  const PRECISION = 60; // significant digits of a reading (readings.PRECISION)
  const EMAX = 999999999; // the exponent limits of symattn's decimal context
  const EMIN = -999999999;
  const GUARD = 30; // extra digits of e^x and ln x before the final rounding

  class ReadError extends Error {}

  const TEN = 10n;
  const POWERS = [1n];
  function pow10(n) {
    if (n > 400) return TEN ** BigInt(n);
    while (POWERS.length <= n) POWERS.push(POWERS[POWERS.length - 1] * TEN);
    return POWERS[n];
  }
  function digitsOf(c) {
    return c === 0n ? 1 : c.toString().length;
  }

  /** A finite decimal (-1)^neg · coef · 10^exp, or −∞ (inf = true). */
  class Dec {
    constructor(neg, coef, exp, inf = false) {
      this.neg = coef === 0n && !inf ? false : neg;
      this.coef = coef;
      this.exp = exp;
      this.inf = inf;
    }
    isZero() {
      return !this.inf && this.coef === 0n;
    }
    adjusted() {
      return this.exp + digitsOf(this.coef) - 1;
    }
    toString() {
      if (this.inf) return this.neg ? "-Infinity" : "Infinity";
      return (this.neg ? "-" : "") + this.coef.toString() + "E" + this.exp;
    }
  }
  const ZERO = new Dec(false, 0n, 0);
  const ONE = new Dec(false, 1n, 0);
  const NEG_INF = new Dec(true, 0n, 0, true);

  /** Round neg · c · 10^e to ``prec`` digits, half to even; ``sticky``: the exact value is
   *  a little more than c · 10^e in magnitude (digits were cut off below c). */
  function finish(neg, c, e, prec, sticky = false) {
    const n = digitsOf(c);
    let drop = Math.max(n - prec, EMIN - prec + 1 - e, 0);
    if (drop > 0) {
      if (drop > n) {
        c = 0n;
      } else {
        const unit = pow10(drop);
        const half = 5n * pow10(drop - 1);
        const rest = c % unit;
        c = c / unit;
        if (rest > half || (rest === half && (sticky || c % 2n === 1n))) c += 1n;
        if (digitsOf(c) > prec) {
          c /= TEN;
          drop += 1;
        }
      }
      e += drop;
    } else if (sticky) {
      throw new Error("internal: too few digits to round");
    }
    const out = new Dec(neg, c, e);
    if (c !== 0n && out.adjusted() > EMAX) throw new ReadError("the value is out of range");
    return out;
  }

  function neg(a) {
    return a.inf ? new Dec(!a.neg, 0n, 0, true) : new Dec(!a.neg, a.coef, a.exp);
  }
  function abs(a) {
    return a.neg ? neg(a) : a;
  }
  function cmp(a, b) {
    if (a.inf || b.inf) {
      const va = a.inf ? (a.neg ? -1 : 1) : 0;
      const vb = b.inf ? (b.neg ? -1 : 1) : 0;
      if (va !== vb || va !== 0) return Math.sign(va - vb);
    }
    const sa = a.isZero() ? 0 : a.neg ? -1 : 1;
    const sb = b.isZero() ? 0 : b.neg ? -1 : 1;
    if (sa !== sb) return Math.sign(sa - sb);
    if (sa === 0) return 0;
    let m;
    if (a.adjusted() !== b.adjusted()) {
      m = a.adjusted() > b.adjusted() ? 1 : -1;
    } else {
      const e = Math.min(a.exp, b.exp);
      const ca = a.coef * pow10(a.exp - e);
      const cb = b.coef * pow10(b.exp - e);
      m = ca === cb ? 0 : ca > cb ? 1 : -1;
    }
    return sa * m;
  }
  function add(a, b, prec = PRECISION) {
    if (a.isZero()) return finish(b.neg, b.coef, b.exp, prec);
    if (b.isZero()) return finish(a.neg, a.coef, a.exp, prec);
    // A term far below the other's last digit only decides the rounding direction: it is
    // replaced by a stand-in as far below (so no digit string grows with the exponents).
    const far = (big, small) => small.adjusted() < big.adjusted() - prec - 5;
    if (far(a, b)) b = new Dec(b.neg, 1n, a.adjusted() - prec - 5);
    else if (far(b, a)) a = new Dec(a.neg, 1n, b.adjusted() - prec - 5);
    const e = Math.min(a.exp, b.exp);
    const ca = (a.neg ? -1n : 1n) * a.coef * pow10(a.exp - e);
    const cb = (b.neg ? -1n : 1n) * b.coef * pow10(b.exp - e);
    const sum = ca + cb;
    return finish(sum < 0n, sum < 0n ? -sum : sum, e, prec);
  }
  function sub(a, b, prec = PRECISION) {
    return add(a, neg(b), prec);
  }
  function mul(a, b, prec = PRECISION) {
    return finish(a.neg !== b.neg, a.coef * b.coef, a.exp + b.exp, prec);
  }
  function div(a, b, prec = PRECISION) {
    if (b.isZero()) throw new ReadError("division by zero");
    if (a.isZero()) return ZERO;
    const shift = Math.max(0, prec + 2 - (digitsOf(a.coef) - digitsOf(b.coef)));
    const scaled = a.coef * pow10(shift);
    const q = scaled / b.coef;
    const sticky = q * b.coef !== scaled;
    return finish(a.neg !== b.neg, q, a.exp - b.exp - shift, prec, sticky);
  }
  function isqrt(n) {
    if (n < 2n) return n;
    let x = 1n << BigInt(Math.ceil(n.toString(2).length / 2));
    for (;;) {
      const y = (x + n / x) >> 1n;
      if (y >= x) return x;
      x = y;
    }
  }
  function sqrt(a, prec = PRECISION) {
    if (a.neg) throw new ReadError("square root of a negative number");
    if (a.isZero()) return ZERO;
    let c = a.coef;
    let e = a.exp;
    if (((e % 2) + 2) % 2 === 1) {
      c *= TEN;
      e -= 1;
    }
    const k = Math.max(0, Math.ceil((2 * (prec + 2) - digitsOf(c)) / 2));
    const n = c * pow10(2 * k);
    const root = isqrt(n);
    return finish(false, root, (e - 2 * k) / 2, prec, root * root !== n);
  }

  /** atanh(1/n) · 10^w, to within a few units (n ≥ 2). */
  function atanhInverse(n, w) {
    const one = pow10(w);
    const big = BigInt(n);
    let power = one / big;
    let sum = power;
    const square = big * big;
    for (let k = 3n; power !== 0n; k += 2n) {
      power /= square;
      sum += power / k;
    }
    return sum;
  }
  let LN10 = { w: 0, v: 0n };
  /** ln 10 · 10^w (3 ln 2 + ln 1.25, with ln 2 = 2 atanh(1/3), ln 1.25 = 2 atanh(1/9)). */
  function ln10(w) {
    if (LN10.w < w) {
      const x = w + 10;
      const v = 6n * atanhInverse(3, x) + 2n * atanhInverse(9, x);
      LN10 = { w: x, v };
    }
    return LN10.v / pow10(LN10.w - w);
  }
  /** A fixed-point number v · 10^-w as a decimal rounded to ``prec`` (inexact). */
  function fixed(v, w, prec) {
    const negative = v < 0n;
    return finish(negative, negative ? -v : v, -w, prec, true);
  }
  function toFixed(a, w) {
    // a · 10^w, truncated toward zero
    const shift = a.exp + w;
    if (shift < -digitsOf(a.coef)) return 0n;
    const c = shift >= 0 ? a.coef * pow10(shift) : a.coef / pow10(-shift);
    return a.neg ? -c : c;
  }

  /** e^a, rounded to ``prec`` digits. */
  function exp(a, prec = PRECISION) {
    if (a.isZero()) return ONE;
    const w = prec + GUARD;
    const x = toFixed(a, w + 10); // |a| ≤ 1001: enough digits for the reduction below
    const l10 = ln10(w + 10);
    // a = m ln 10 + y with 0 ≤ y < ln 10: e^a = 10^m e^y
    let m = x / l10;
    if (x < 0n && m * l10 !== x) m -= 1n;
    const y = (x - m * l10) / pow10(10); // y · 10^w
    const halvings = 12;
    const one = pow10(w);
    const r = y / (1n << BigInt(halvings));
    let term = one;
    let sum = one;
    for (let k = 1n; term !== 0n; k += 1n) {
      term = (term * r) / one / k;
      sum += term;
    }
    for (let i = 0; i < halvings; i++) sum = (sum * sum) / one;
    return finish(false, sum, Number(m) - w, prec, true);
  }

  /** ln a (a > 0), rounded to ``prec`` digits. */
  function ln(a, prec = PRECISION) {
    if (a.neg || a.isZero()) throw new ReadError("logarithm of a number ≤ 0");
    const d = sub(a, ONE, 4 * prec);
    if (d.isZero()) return ZERO;
    const w = prec + GUARD + Math.max(0, -d.adjusted());
    // a = m · 10^k with 1 ≤ m < 10; then m = 2^j · t with 1 ≤ t < 2
    const k = a.adjusted();
    const one = pow10(w);
    let t = (a.coef * one) / pow10(digitsOf(a.coef) - 1);
    let j = 0;
    while (t >= 2n * one) {
      t /= 2n;
      j += 1;
    }
    // ln t = 2 atanh(z), z = (t − 1)/(t + 1) ≤ 1/3
    const z = ((t - one) * one) / (t + one);
    const z2 = (z * z) / one;
    let power = z;
    let sum = z;
    for (let n = 3n; power !== 0n; n += 2n) {
      power = (power * z2) / one;
      sum += power / n;
    }
    const ln2 = 2n * atanhInverse(3, w);
    const total = 2n * sum + BigInt(j) * ln2 + BigInt(k) * ln10(w);
    return fixed(total, w, prec);
  }

  /** atan(1/n) · 10^w (n ≥ 2), by its series. */
  function atanInverse(n, w) {
    const big = BigInt(n);
    let power = pow10(w) / big;
    let sum = power;
    const square = big * big;
    for (let k = 3n, sign = -1n; power !== 0n; k += 2n, sign = -sign) {
      power /= square;
      sum += (sign * power) / k;
    }
    return sum;
  }
  let PI = { w: 0, v: 0n };
  /** π · 10^w (Machin: 16 atan(1/5) − 4 atan(1/239)). */
  function pi(w) {
    if (PI.w < w) {
      const x = w + 10;
      PI = { w: x, v: 16n * atanInverse(5, x) - 4n * atanInverse(239, x) };
    }
    return PI.v / pow10(PI.w - w);
  }
  /** sin a or cos a (|a| ≤ 1000), rounded to ``prec`` digits (readings._function). */
  function trig(name, a, prec = PRECISION) {
    if (a.isZero()) return name === "cos" ? ONE : ZERO;
    const w = prec + GUARD + Math.max(0, -a.adjusted());
    const x = toFixed(a, w + 10);
    const turn = 2n * pi(w + 10);
    const y = (x - (x / turn) * turn) / pow10(10); // a mod 2π, · 10^w, |y| < 2π
    const one = pow10(w);
    const y2 = (y * y) / one;
    let term = name === "cos" ? one : y;
    let sum = term;
    for (let j = name === "cos" ? 1n : 2n; term !== 0n; j += 2n) {
      term = -(term * y2) / one / (j * (j + 1n));
      sum += term;
    }
    return fixed(sum, w, prec);
  }
  /** tanh a = ±(1 − e^−2|a|)/(1 + e^−2|a|), rounded to ``prec`` digits. */
  function tanh(a, prec = PRECISION) {
    if (a.isZero()) return ZERO;
    const p = prec + GUARD + Math.max(0, -a.adjusted());
    const size = cmp(abs(a), HUNDRED) > 0 ? HUNDRED : abs(a); // tanh 100 is 1 to 86 digits
    const t = exp(neg(mul(size, new Dec(false, 2n, 0), p)), p);
    const value = div(sub(ONE, t, p), add(ONE, t, p), prec);
    return a.neg ? neg(value) : value;
  }

  /** A decimal as Python's str(Decimal) writes it ("0.1070", "1.2E-7", "-Infinity"). */
  function parseDecimal(text) {
    if (text === "-Infinity") return NEG_INF;
    if (text === "Infinity") return new Dec(false, 0n, 0, true);
    const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
    if (m === null || (m[2] + (m[3] || "")).length === 0) throw new Error("not a decimal: " + text);
    const frac = m[3] || "";
    const coef = BigInt(m[2] + frac || "0");
    return new Dec(m[1] === "-", coef, Number(m[4] || 0) - frac.length);
  }

  // -- the tokens (symattn/load/lexer.py, answers profile) ----------------------------------
  const SPACE = new Set(
    [0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680, 0x2000,
      0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
      0x2028, 0x2029, 0x202f, 0x205f, 0x3000].map((c) => String.fromCharCode(c))
  ); // what Python's str.isspace() accepts
  const NUMBER = /(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?/y;
  const COMMA_NUMBER = /[0-9]+,[0-9]+(?![0-9]*,)/y;
  const NAME = /[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*/y;
  const SUPERSCRIPTS = /[⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺]+/y;
  const DOUBLE_STAR = /\*\*/y;
  const COMMAND = /\\([A-Za-z]+|[,;! ])/y;
  const SUPER_DIGITS = { "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5",
    "⁶": "6", "⁷": "7", "⁸": "8", "⁹": "9", "⁻": "-", "⁺": "+" };
  const OPERATORS = { "^": "^", "*": "*", "·": "*", "⋅": "*", "×": "*", "/": "/", "÷": "/",
    "+": "+", "-": "-", "−": "-", "(": "(", ")": ")", "{": "{", "}": "}", "√": "√", "%": "%",
    "∞": "inf" };
  const COMMANDS = { frac: "frac", dfrac: "frac", tfrac: "frac", sqrt: "sqrt", cdot: "*",
    times: "*", div: "/", infty: "inf", exp: "exp", left: "", right: "", ",": "", ";": "",
    "!": "", " ": "", quad: "", mathrm: "", operatorname: "", sin: "sin", cos: "cos",
    tanh: "tanh" };
  const FUNCTIONS = ["sin", "cos", "tanh"]; // lexer.FUNCTIONS

  function match(regex, text, pos) {
    regex.lastIndex = pos;
    const m = regex.exec(text);
    return m === null ? null : m;
  }

  function tokens(text) {
    const out = [];
    let pos = 0;
    let spaced = false;
    while (pos < text.length) {
      const ch = text[pos];
      if (SPACE.has(ch)) {
        pos += 1;
        spaced = true;
        continue;
      }
      let m;
      if ((m = match(COMMA_NUMBER, text, pos))) {
        out.push({ kind: "num", text: m[0].replace(",", "."), spaced });
      } else if ((m = match(NUMBER, text, pos))) {
        out.push({ kind: "num", text: m[0], spaced });
      } else if ((m = match(NAME, text, pos))) {
        out.push({ kind: "name", text: m[0], spaced });
      } else if ((m = match(SUPERSCRIPTS, text, pos))) {
        const plain = [...m[0]].map((c) => SUPER_DIGITS[c]).join("");
        out.push({ kind: "sup", text: plain, spaced });
      } else if ((m = match(DOUBLE_STAR, text, pos))) {
        out.push({ kind: "op", text: "^", spaced });
      } else if (ch === "\\" && (m = match(COMMAND, text, pos))) {
        const command = m[1];
        if (!Object.prototype.hasOwnProperty.call(COMMANDS, command)) {
          throw new ReadError("unknown LaTeX command \\" + command);
        }
        if (COMMANDS[command]) out.push({ kind: "op", text: COMMANDS[command], spaced });
      } else if (Object.prototype.hasOwnProperty.call(OPERATORS, ch)) {
        out.push({ kind: "op", text: OPERATORS[ch], spaced });
        pos += 1;
        spaced = false;
        continue;
      } else if ((ch === "≈" || ch === "~") && out.length === 0) {
        pos += 1;
        spaced = true;
        continue;
      } else {
        throw new ReadError("unexpected character " + ch);
      }
      pos += m[0].length;
      spaced = false;
    }
    return out;
  }

  // -- the grammar (symattn/load/grammar.py) ----------------------------------------------
  const MAX_ANSWER_LENGTH = 4000; // grammar.MAX_ANSWER_LENGTH
  const MAX_DEPTH = 100; // grammar.MAX_DEPTH
  const MAX_DECIMAL_EXPONENT = 100;
  const BINDING = { "+": 10, "-": 10, "*": 20, "/": 20 };
  const NEGATION = 25;
  const IMPLICIT = ["√", "sqrt", "frac", "(", "{", "exp", ...FUNCTIONS];

  /** A number as written (Python's Decimal(text) and grammar._number). */
  function number(text) {
    const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?(?:[eE]([+-]?[0-9]+))?$/.exec(text);
    if (m === null || (m[2] + (m[3] === undefined ? "" : m[3])).length === 0) {
      throw new ReadError("not a number: " + text);
    }
    const frac = m[3] === undefined ? "" : m[3];
    const power = m[4] === undefined ? 0 : Number(m[4]);
    const coef = BigInt(m[2] + frac);
    const exponent = power - frac.length;
    if (Math.abs(exponent) > MAX_DECIMAL_EXPONENT + 30) throw new ReadError("out of range");
    const value = new Dec(m[1] === "-", coef, exponent);
    if (coef !== 0n && Math.abs(value.adjusted()) > MAX_DECIMAL_EXPONENT) {
      throw new ReadError("out of range");
    }
    return { type: "num", value, places: m[3] === undefined ? null : frac.length, exponent: power };
  }

  class Parser {
    constructor(text) {
      this.tokens = tokens(text);
      this.index = 0;
      this.depth = 0;
    }
    nested(read) {
      // grammar._Parser.deeper: brackets, signs and powers at most MAX_DEPTH deep
      this.depth += 1;
      if (this.depth > MAX_DEPTH) throw new ReadError("nested more than " + MAX_DEPTH + " deep");
      try {
        return read();
      } finally {
        this.depth -= 1;
      }
    }
    peek() {
      return this.index < this.tokens.length ? this.tokens[this.index] : null;
    }
    take() {
      const token = this.peek();
      if (token === null) throw new ReadError("value ends too early");
      this.index += 1;
      return token;
    }
    isOp(token, ...ops) {
      return token !== null && token.kind === "op" && ops.includes(token.text);
    }
    expect(op) {
      const token = this.take();
      if (!this.isOp(token, op)) throw new ReadError("expected " + op);
    }
    parse() {
      if (this.tokens.length === 0) throw new ReadError("empty value");
      const node = this.expression(0);
      if (this.peek() !== null) throw new ReadError("unexpected " + this.peek().text);
      return node;
    }
    implicit(token) {
      // grammar._Parser.implicit: a name after a space is a factor too (2 e^{x}), but a
      // spaced e between a number and a sign or a number (6.3379 e-02) is refused
      if (token.kind === "op") return IMPLICIT.includes(token.text);
      if (token.kind !== "name") return false;
      if (token.spaced && token.text.toLowerCase() === "e") {
        const before = this.tokens[this.index - 1];
        const after = this.index + 1 < this.tokens.length ? this.tokens[this.index + 1] : null;
        const signed =
          after !== null && (after.kind === "num" || (after.kind === "op" && "+-".includes(after.text)));
        if (before.kind === "num" && signed) {
          throw new ReadError("'" + before.text + " e' could be a power of ten or a product with e");
        }
      }
      return true;
    }
    expression(floor) {
      return this.nested(() => this.expression1(floor));
    }
    expression1(floor) {
      let left = this.unary();
      let token;
      while ((token = this.peek()) !== null) {
        if (token.kind === "op" && Object.prototype.hasOwnProperty.call(BINDING, token.text)) {
          const binding = BINDING[token.text];
          if (binding <= floor) break;
          this.take();
          left = { type: "bin", op: token.text, left, right: this.expression(binding) };
        } else if (this.implicit(token) && BINDING["*"] > floor) {
          left = { type: "bin", op: "*", left, right: this.expression(BINDING["*"]) };
        } else {
          break;
        }
      }
      return left;
    }
    unary() {
      const token = this.peek();
      if (this.isOp(token, "+", "-")) {
        this.take();
        const inner = this.expression(NEGATION);
        return token.text === "+" ? inner : { type: "neg", arg: inner };
      }
      return this.power();
    }
    power() {
      const base = this.postfix(this.atom());
      const token = this.peek();
      if (this.isOp(token, "^")) {
        this.take();
        return { type: "pow", base, exponent: this.exponent() };
      }
      if (token !== null && token.kind === "sup") {
        this.take();
        return { type: "pow", base, exponent: number(token.text.replace(/^\++/, "")) };
      }
      return base;
    }
    exponent() {
      return this.nested(() => this.exponent1());
    }
    exponent1() {
      const token = this.peek();
      if (this.isOp(token, "+", "-")) {
        this.take();
        const inner = this.power();
        return token.text === "+" ? inner : { type: "neg", arg: inner };
      }
      return this.power();
    }
    postfix(node) {
      while (this.isOp(this.peek(), "%")) {
        this.take();
        node = { type: "percent", arg: node };
      }
      return node;
    }
    group(close) {
      const node = this.expression(0);
      this.expect(close);
      return node;
    }
    atom() {
      const token = this.take();
      if (token.kind === "num") return number(token.text);
      if (token.kind === "op") {
        if (token.text === "(") return this.group(")");
        if (token.text === "{") return this.group("}");
        if (token.text === "√" || token.text === "sqrt") {
          return { type: "sqrt", arg: this.postfix(this.atom()) };
        }
        if (token.text === "frac") {
          this.expect("{");
          const num = this.group("}");
          this.expect("{");
          return { type: "bin", op: "/", left: num, right: this.group("}") };
        }
        if (token.text === "exp") return { type: "exp", arg: this.postfix(this.atom()) };
        if (FUNCTIONS.includes(token.text)) {
          return { type: "func", name: token.text, arg: this.postfix(this.atom()) };
        }
        if (token.text === "inf") return { type: "inf" };
      }
      if (token.kind === "name") return this.named(token);
      throw new ReadError("unexpected " + token.text);
    }
    named(token) {
      const name = token.text;
      if (name === "sqrt") {
        this.expect("(");
        return { type: "sqrt", arg: this.group(")") };
      }
      if (name === "exp") {
        this.expect("(");
        return { type: "exp", arg: this.group(")") };
      }
      if (FUNCTIONS.includes(name)) {
        this.expect("(");
        return { type: "func", name, arg: this.group(")") };
      }
      if (name === "e" || name === "E") return { type: "euler" };
      if (["inf", "infinity", "oo"].includes(name.toLowerCase())) return { type: "inf" };
      return { type: "name", name };
    }
  }

  /** grammar._check_depth: the tree at most MAX_DEPTH deep, walked without recursion. */
  function checkDepth(tree) {
    const stack = [[tree, 1]];
    while (stack.length) {
      const [node, depth] = stack.pop();
      if (depth > MAX_DEPTH) throw new ReadError("nested more than " + MAX_DEPTH + " deep");
      if (node.type === "bin") stack.push([node.left, depth + 1], [node.right, depth + 1]);
      else if (node.type === "pow") stack.push([node.base, depth + 1], [node.exponent, depth + 1]);
      else if (node.arg !== undefined) stack.push([node.arg, depth + 1]);
    }
  }

  function parse(text) {
    if ([...text].length > MAX_ANSWER_LENGTH) throw new ReadError("value too long");
    const tree = new Parser(text).parse();
    checkDepth(tree);
    return tree;
  }

  // -- the reading: midpoint and radius (symattn/load/readings.py) -------------------------
  const MAX_EXPONENT = new Dec(false, 1000n, 0);
  const HUNDRED = new Dec(false, 100n, 0);
  const BIG = new Dec(false, 1n, 100);
  const TEN_BILLION = new Dec(false, 1n, 10);

  function iv(mid, rad) {
    return { mid, rad };
  }
  function ivMul(a, b) {
    const rad = add(add(mul(abs(a.mid), b.rad), mul(abs(b.mid), a.rad)), mul(a.rad, b.rad));
    return iv(mul(a.mid, b.mid), rad);
  }
  function ivDiv(a, b) {
    if (cmp(abs(b.mid), b.rad) <= 0) throw new ReadError("division by zero");
    const top = add(mul(abs(a.mid), b.rad), mul(abs(b.mid), a.rad));
    const bottom = mul(abs(b.mid), sub(abs(b.mid), b.rad));
    return iv(div(a.mid, b.mid), div(top, bottom));
  }
  function ivSqrt(a) {
    if (a.mid.neg) throw new ReadError("the root of a negative number");
    let low = sub(a.mid, a.rad);
    if (cmp(low, ZERO) < 0) low = ZERO;
    const high = add(a.mid, a.rad);
    const root = sqrt(a.mid);
    const up = sub(sqrt(high), root);
    const down = sub(root, sqrt(low));
    return iv(root, cmp(down, up) > 0 ? down : up);
  }
  function ivExp(a) {
    if (cmp(add(abs(a.mid), a.rad), MAX_EXPONENT) > 0) throw new ReadError("exponent too large");
    const value = exp(a.mid);
    return iv(value, mul(value, sub(exp(a.rad), ONE)));
  }
  function ivFunction(name, a) {
    // readings._function: |f′| ≤ 1, so the radius is the argument's
    if (cmp(add(abs(a.mid), a.rad), MAX_EXPONENT) > 0) throw new ReadError("argument too large");
    return iv(name === "tanh" ? tanh(a.mid) : trig(name, a.mid), a.rad);
  }
  function whole(node) {
    let sign = 1;
    if (node.type === "neg") {
      node = node.arg;
      sign = -1;
    }
    if (node.type === "num" && node.places === null && node.value.exp >= 0) {
      return sign * Number(node.value.coef * pow10(node.value.exp)) * (node.value.neg ? -1 : 1);
    }
    if (node.type === "num" && node.places === null) {
      // an integer written with a negative exponent (10e-1) or a fraction (1e-1)
      const unit = pow10(-node.value.exp);
      if (node.value.coef % unit === 0n) {
        return sign * Number(node.value.coef / unit) * (node.value.neg ? -1 : 1);
      }
    }
    return null;
  }
  function ivPow(node) {
    const base = interval(node.base);
    const n = whole(node.exponent);
    if (n !== null && node.base.type !== "euler") {
      if (Math.abs(n) > 64) throw new ReadError("expected a whole exponent up to 64");
      if (cmp(abs(base.mid), TEN_BILLION) > 0 && Math.abs(n) > 10) {
        throw new ReadError("the power is out of range");
      }
      let out = iv(ONE, ZERO);
      for (let k = 0; k < Math.abs(n); k++) out = ivMul(out, base);
      return n < 0 ? ivDiv(iv(ONE, ZERO), out) : out;
    }
    const exponent = interval(node.exponent);
    if (node.base.type === "euler") return ivExp(exponent);
    const low = sub(base.mid, base.rad);
    if (low.neg || low.isZero()) throw new ReadError("a power needs a positive base");
    const log = iv(ln(base.mid), div(base.rad, low));
    return ivExp(ivMul(exponent, log));
  }
  function interval(node) {
    switch (node.type) {
      case "num": {
        const mid = finish(node.value.neg, node.value.coef, node.value.exp, PRECISION);
        if (node.places === null) return iv(mid, ZERO);
        return iv(mid, new Dec(false, 1n, node.exponent - node.places));
      }
      case "neg": {
        const inner = interval(node.arg);
        return iv(neg(inner.mid), inner.rad);
      }
      case "bin": {
        const left = interval(node.left);
        const right = interval(node.right);
        if (node.op === "+") return iv(add(left.mid, right.mid), add(left.rad, right.rad));
        if (node.op === "-") return iv(sub(left.mid, right.mid), add(left.rad, right.rad));
        if (node.op === "*") return ivMul(left, right);
        return ivDiv(left, right);
      }
      case "sqrt":
        return ivSqrt(interval(node.arg));
      case "pow":
        return ivPow(node);
      case "exp":
        return ivExp(interval(node.arg));
      case "func":
        return ivFunction(node.name, interval(node.arg));
      case "euler":
        return iv(exp(ONE), ZERO);
      case "percent": {  // 62% is a percent rounded to a whole one: 0.62 ± 0.01
        const inner = interval(node.arg);
        const rad = inner.rad.isZero() && node.arg.type === "num" ? ONE : inner.rad;
        return iv(div(inner.mid, HUNDRED), div(rad, HUNDRED));
      }
      case "inf":
        throw new ReadError("∞ can only be a whole answer, -inf");
      default:
        throw new ReadError(node.name + " is not a number");
    }
  }

  /** Python's str.strip(): what check does to an entry before reading it. */
  function strip(text) {
    let start = 0;
    let end = text.length;
    while (start < end && SPACE.has(text[start])) start += 1;
    while (end > start && SPACE.has(text[end - 1])) end -= 1;
    return text.slice(start, end);
  }

  /** One written answer: {text, value, radius, places}; places is null when exact.
   *  Throws a ReadError when the text cannot be read as a number. */
  function readAnswer(text) {
    const tree = parse(text);
    if (tree.type === "neg" && tree.arg.type === "inf") {
      return { text, value: NEG_INF, radius: ZERO, places: null };
    }
    let found;
    try {
      found = interval(tree);
    } catch (error) {
      if (error instanceof ReadError) throw error;
      throw new ReadError("the value is out of range");
    }
    const value = found.mid;
    const radius = found.rad;
    if (cmp(abs(value), BIG) > 0) throw new ReadError("the value is out of range");
    let places = null;
    if (!radius.isZero()) {
      places = cmp(radius, ONE) < 0 ? Math.max(0, -radius.adjusted()) : 0;
    }
    return { text, value, radius, places };
  }

  /** What check does with one input: null when nothing is written (only spaces), else
   *  {ok: true, reading} or {ok: false, error}. */
  function readEntry(raw) {
    const text = strip(raw);
    if (text === "") return null;
    try {
      return { ok: true, reading: readAnswer(text) };
    } catch (error) {
      if (error instanceof ReadError || error instanceof RangeError) {
        return { ok: false, error: error.message };
      }
      throw error;
    }
  }

  const api = {
    PRECISION, Dec, ReadError, ZERO, ONE, NEG_INF,
    add, sub, mul, div, sqrt, exp, ln, tanh, abs, neg, cmp, finish, parseDecimal,
    tokens, parse, strip, readAnswer, readEntry,
  };
  if (typeof module === "object" && module.exports) module.exports = api;
  else root.SymattnReader = api;
})(typeof globalThis !== "undefined" ? globalThis : this);
