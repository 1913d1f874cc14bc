// `calc-bench --numbers`: the cost of CalcDecimal's `Number` (issue 48's exact values) against
// plain `Decimal34` on the same operations, in process, before the engine uses it. Each row
// times one operation over a ring of 1,024 prepared operands (so nothing is constant-folded),
// best of 5 runs, in the thread's CPU time (a loaded machine inflates wall time far more); the
// checksums keep the results alive.

import CalcDecimal
import CalcTestSupport
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// The calling thread's CPU time, in seconds.
func threadSeconds() -> Double {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// One row: nanoseconds per operation for `Decimal34` (where there is a counterpart) and for
/// `Number`.
struct NumberRow {
  let name: String
  let decimal: Double?
  let number: Double
}

/// Nanoseconds per call of `body` over `count` calls, best of `runs`.
@inline(never)
func nanoseconds(count: Int, runs: Int = 5, _ body: (Int) -> UInt64) -> Double {
  var best = Double.infinity
  var sink: UInt64 = 0
  for _ in 0..<runs {
    let start = threadSeconds()
    for index in 0..<count { sink &+= body(index & 1023) }
    best = min(best, (threadSeconds() - start) * 1e9 / Double(count))
  }
  if sink == 42 { print("") }  // keeps `sink`
  return best
}

/// A checksum of a decimal.
@inline(__always) func bits(_ value: Decimal34) -> UInt64 {
  UInt64(truncatingIfNeeded: value.coefficient) &+ UInt64(bitPattern: Int64(value.exponent))
}

/// A checksum of a number: its 34-digit value's (cheap for decimals; for fractions it rounds, so
/// the rows that make fractions time `isRounded` instead).
@inline(__always) func bits(_ value: Number) -> UInt64 {
  if let decimal = value.shortDecimal { return bits(decimal) }
  return value.isRounded ? 1 : 2
}

/// `c·10^e` for the rings.
func decimal(_ coefficient: UInt128, _ exponent: Int) -> Decimal34 {
  Decimal34(coefficient: coefficient, exponent: exponent)
}

func measureNumbers(count: Int = 4_000_000) -> [NumberRow] {
  // 123.45 … 133.68 times 6.7: the everyday script's product.
  let xs = (0..<1024).map { decimal(12345 + UInt128($0), -2) }
  let ys = (0..<1024).map { _ in decimal(67, -1) }
  let nx = xs.map { Number($0) }
  let ny = ys.map { Number($0) }
  // Sums of typed numbers with different decimals: 1234.5 + 0.25.
  let ax = (0..<1024).map { decimal(12345 + UInt128($0), -1) }
  let ay = (0..<1024).map { decimal(25 + UInt128($0 % 7), -2) }
  let nax = ax.map { Number($0) }
  let nay = ay.map { Number($0) }
  // The mixed script's division by a prime: 12345.67 / 7 … 97.
  let primes: [UInt128] = [3, 7, 9, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 97]
  let dx = (0..<1024).map { decimal(1_234_567 + UInt128($0) * 101, -2) }
  let dy = (0..<1024).map { decimal(primes[$0 % primes.count], 0) }
  let ndx = dx.map { Number($0) }
  let ndy = dy.map { Number($0) }
  let quotients = (0..<1024).map { Number.dividing(ndx[$0], by: ndy[$0])! }
  let decimalQuotients = (0..<1024).map { Decimal34.dividing(dx[$0], by: dy[$0])! }
  // A boxed fraction (denominator 7^25, 22 digits) and a typed number.
  var seventh = Number(1)
  for _ in 0..<25 { seventh = Number.dividing(seventh, by: Number(7))! }
  let boxed = (0..<1024).map { seventh * Number(decimal(1 + UInt128($0), 0)) }
  // A fraction past 128 bits: denominator 7^60, 51 digits.
  var large = seventh
  for _ in 0..<35 { large = Number.dividing(large, by: Number(7))! }
  let larges = (0..<1024).map { large * Number(decimal(1 + UInt128($0), 0)) }
  let third = Number.dividing(Number(1), by: Number(3))!

  // Chains like the Standard stream's (calc-bench's keyStream): numbers of 1–8 digits, a quarter
  // with a point, under + − × ÷ at random, a new chain after 5 operations.
  var random = SplitMix64(state: 48)
  let chainOperands = (0..<4096).map { _ -> Decimal34 in
    let digits = 1 + random.below(8)
    var coefficient: UInt128 = UInt128(1 + random.below(9))
    for _ in 1..<digits { coefficient = coefficient * 10 + UInt128(random.below(10)) }
    return decimal(coefficient, random.chance(25) ? -random.below(digits + 1) : 0)
  }
  let chainNumbers = chainOperands.map { Number($0) }
  let chainOps = (0..<4096).map { _ in random.below(4) }

  var rows: [NumberRow] = []
  rows.append(
    NumberRow(
      name: "123.45*6.7 (product, exact decimal)",
      decimal: nanoseconds(count: count) { bits(xs[$0] * ys[$0]) },
      number: nanoseconds(count: count) { bits(nx[$0] * ny[$0]) }))
  rows.append(
    NumberRow(
      name: "1234.5+0.25 (sum, exact decimal)",
      decimal: nanoseconds(count: count) { bits(ax[$0] + ay[$0]) },
      number: nanoseconds(count: count) { bits(nax[$0] + nay[$0]) }))
  rows.append(
    NumberRow(
      name: "12345.67/7 (quotient: small fraction)",
      decimal: nanoseconds(count: count) { bits(Decimal34.dividing(dx[$0], by: dy[$0])!) },
      number: nanoseconds(count: count) { bits(Number.dividing(ndx[$0], by: ndy[$0])!) }))
  rows.append(
    NumberRow(
      name: "  its 34 digits (--plain)",
      decimal: nanoseconds(count: count) { bits(decimalQuotients[$0]) },
      number: nanoseconds(count: count) { bits(quotients[$0].decimalValue) }))
  rows.append(
    NumberRow(
      name: "  its 8 fraction digits (display)",
      decimal: nanoseconds(count: count) {
        bits(decimalQuotients[$0].rounded(toFractionDigits: 8))
      },
      number: nanoseconds(count: count) { bits(quotients[$0].rounded(toFractionDigits: 8)) }))
  rows.append(
    NumberRow(
      name: "Standard-stream chains (+ − × ÷, 5 a chain)",
      decimal: chainNanoseconds(count: count, operands: chainOperands, ops: chainOps),
      number: chainNanoseconds(count: count, operands: chainNumbers, ops: chainOps)))
  rows.append(
    NumberRow(
      name: "small fraction * 6.7",
      decimal: nil, number: nanoseconds(count: count) { bits(quotients[$0] * ny[$0]) }))
  rows.append(
    NumberRow(
      name: "small fraction + 1234.5",
      decimal: nil, number: nanoseconds(count: count) { bits(quotients[$0] + nax[$0]) }))
  rows.append(
    NumberRow(
      name: "1/3 * 3 (back to a decimal)",
      decimal: nil, number: nanoseconds(count: count) { _ in bits(third * Number(3)) }))
  rows.append(
    NumberRow(
      name: "boxed fraction (7^25) * 6.7", decimal: nil,
      number: nanoseconds(count: count / 10) { bits(boxed[$0] * ny[$0]) }))
  rows.append(
    NumberRow(
      name: "boxed fraction (7^25) + 1234.5", decimal: nil,
      number: nanoseconds(count: count / 10) { bits(boxed[$0] + nax[$0]) }))
  rows.append(
    NumberRow(
      name: "boxed fraction + boxed fraction", decimal: nil,
      number: nanoseconds(count: count / 100) { bits(boxed[$0] + boxed[($0 + 1) & 1023]) }))
  rows.append(
    NumberRow(
      name: "boxed fraction, its 34 digits", decimal: nil,
      number: nanoseconds(count: count / 10) { bits(boxed[$0].decimalValue) }))
  rows.append(
    NumberRow(
      name: "large fraction (7^60) * 6.7", decimal: nil,
      number: nanoseconds(count: count / 10) { bits(larges[$0] * ny[$0]) }))
  rows.append(
    NumberRow(
      name: "large fraction (7^60) + 1234.5", decimal: nil,
      number: nanoseconds(count: count / 10) { bits(larges[$0] + nax[$0]) }))
  rows.append(
    NumberRow(
      name: "large fraction + large fraction", decimal: nil,
      number: nanoseconds(count: count / 100) { bits(larges[$0] + larges[($0 + 1) & 1023]) }))
  // At the cap: 1/7^141 (120 digits) × c ÷ 13 needs 122 digits and is rounded.
  var capped = large
  for _ in 0..<81 { capped = Number.dividing(capped, by: Number(7))! }
  let cappeds = (0..<1024).map { capped * Number(decimal(1 + UInt128($0), 0)) }
  rows.append(
    NumberRow(
      name: "fraction at the cap (7^141) / 13, rounded", decimal: nil,
      number: nanoseconds(count: count / 100) { bits(Number.dividing(cappeds[$0], by: ndy[4])!) }))
  // The slowest exact steps: two fractions at the cap, with coprime 120-digit denominators.
  var thirteenth = Number(1)
  for _ in 0..<107 { thirteenth = Number.dividing(thirteenth, by: Number(13))! }
  let other = (0..<1024).map { thirteenth * Number(decimal(1 + UInt128($0), 0)) }
  rows.append(
    NumberRow(
      name: "at the cap: 1/7^141 + 1/13^107 (rounded)", decimal: nil,
      number: nanoseconds(count: count / 1000) { bits(cappeds[$0] + other[$0]) }))
  rows.append(
    NumberRow(
      name: "at the cap: 1/7^141 mod 1/13^107", decimal: nil,
      number: nanoseconds(count: count / 1000) {
        bits(try! Number.floorMod(cappeds[$0], other[$0]).get())
      }))
  rows.append(
    NumberRow(
      name: "at the cap: (1/7^141)^2 (rounded)", decimal: nil,
      number: nanoseconds(count: count / 1000) {
        bits(try! Number.power(cappeds[$0], Number(2)).get())
      }))
  return rows
}

/// Nanoseconds per operation of chains over `operands` (Decimal34).
@inline(never)
func chainNanoseconds(count: Int, operands: [Decimal34], ops: [Int]) -> Double {
  var best = Double.infinity
  var sink: UInt64 = 0
  for _ in 0..<3 {
    let start = threadSeconds()
    var value = operands[0]
    for index in 0..<count {
      let y = operands[index & 4095]
      if index % 5 == 0 {
        value = y
        continue
      }
      switch ops[index & 4095] {
      case 0: value = value + y
      case 1: value = value - y
      case 2: value = value * y
      default: value = Decimal34.dividing(value, by: y)!
      }
      sink &+= bits(value)
    }
    best = min(best, (threadSeconds() - start) * 1e9 / Double(count))
  }
  if sink == 42 { print("") }
  return best
}

/// Nanoseconds per operation of the same chains in `Number`.
@inline(never)
func chainNanoseconds(count: Int, operands: [Number], ops: [Int]) -> Double {
  var best = Double.infinity
  var sink: UInt64 = 0
  for _ in 0..<3 {
    let start = threadSeconds()
    var value = operands[0]
    for index in 0..<count {
      let y = operands[index & 4095]
      if index % 5 == 0 {
        value = y
        continue
      }
      switch ops[index & 4095] {
      case 0: value = value + y
      case 1: value = value - y
      case 2: value = value * y
      default: value = Number.dividing(value, by: y)!
      }
      sink &+= bits(value)
    }
    best = min(best, (threadSeconds() - start) * 1e9 / Double(count))
  }
  if sink == 42 { print("") }
  return best
}

func printNumbers(_ rows: [NumberRow]) {
  print(
    "Number (issue 48) against Decimal34, ns an operation, best of 5:"
      + " MemoryLayout<Number>.size \(MemoryLayout<Number>.size),"
      + " stride \(MemoryLayout<Number>.stride) (Decimal34: \(MemoryLayout<Decimal34>.size),"
      + " \(MemoryLayout<Decimal34>.stride))")
  for row in rows {
    let decimal = row.decimal.map { fixed($0, 1) } ?? "-"
    let ratio = row.decimal.map { " (\(fixed(row.number / $0, 2))x)" } ?? ""
    print("  \(row.name): Decimal34 \(decimal), Number \(fixed(row.number, 1))\(ratio)")
  }
}

func numbersSummary(_ rows: [NumberRow]) -> String {
  rows.prefix(3).enumerated().map { index, row in
    let name = ["mul", "add", "div"][index]
    return
      " number_\(name)_ns=\(fixed(row.number, 1)) decimal_\(name)_ns=\(fixed(row.decimal ?? 0, 1))"
  }.joined()
}
