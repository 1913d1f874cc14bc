import CalcDecimal

/// How the display shows numbers: `NumberFormatter`'s decimal style for a locale, with digits
/// rendered from the exact decimal value.
///
/// The locale's symbols (decimal and grouping separators, grouping sizes, minus sign, digits)
/// are those of a `NumberFormatter`, taken from ``LocaleTable``, which is generated from
/// Foundation: the engine does not link Foundation. The digits are not `NumberFormatter`'s: on
/// Linux it turns a decimal into a `Double` first and would print
/// `9,999,999,999,800,000,000,000` for 9,999,999,999,800,000,000,001.
///
/// - An entry is shown as typed, grouped: `1,234.50`, `0.`, `-0.`.
/// - A computed value is shown with at most 8 fraction digits, rounded half to even, without
///   trailing zeros and never as `-0`: `0.66666667`, `22.665`, `3`.
/// - A nonzero value below 10^-8 or from 10^34 on is shown in scientific notation, with at most
///   8 fraction digits in the mantissa: `3.33333333E-10`, `1E40`.
///
/// ``plain`` is the format for scripts (`--plain`): no grouping, `.`, ASCII digits, and every
/// significant digit of a computed value (up to 34) instead of 8 fraction digits.
///
/// What is shown is not decided here: the brain says it (``CalculatorBrain/display`` and
/// ``CalculatorBrain/expressionLine``), and a format renders it.
public struct DisplayFormat: Hashable, Sendable {
  /// The locale identifier the symbols were taken from.
  public let localeIdentifier: String
  /// Between the integer and fraction digits, e.g. `.` or `,`.
  package let decimalSeparator: String
  /// Between groups of integer digits, e.g. `,`, `.`, or U+202F in French.
  package let groupingSeparator: String
  /// The size of the rightmost group of integer digits; 0 for no grouping.
  package let groupingSize: Int
  /// The size of the other groups; 0 when it equals ``groupingSize``.
  package let secondaryGroupingSize: Int
  /// How many digits must stand before the first grouping separator: 1, or 2 in locales such as
  /// es_ES that write `1234` but `12.345` (ICU's minimum grouping digits).
  package let minimumGroupingDigits: Int
  /// The minus sign, e.g. `-` or U+2212.
  package let minusSign: String
  /// The locale's digits for 0 through 9.
  package let digits: [String]
  /// How many digits of a computed value are shown.
  package let precision: Precision

  /// How many digits of a computed value a format shows.
  package enum Precision: Hashable, Sendable {
    /// At most ``DisplayFormat/maximumFractionDigits`` fraction digits (in scientific notation,
    /// of the mantissa), rounded half to even: what a pocket calculator shows.
    case display
    /// Every significant digit of the value, up to 34: nothing is rounded away.
    case exact
  }

  /// The most fraction digits of a computed value.
  package static let maximumFractionDigits = 8
  /// Computed values from 10^34 on are shown in scientific notation.
  package static let scientificFromExponent = 34
  /// Nonzero computed values below 10^-8 are shown in scientific notation.
  package static let scientificBelowExponent = -8

  /// The symbols of the locale with identifier `identifier`.
  ///
  /// The symbols are those `NumberFormatter`'s decimal style gives the locale, from
  /// ``LocaleTable`` (generated from Foundation; `LocaleTableTests` checks every entry). An
  /// identifier the table does not hold gets the root locale's symbols (`.`, `,`, groups of 3,
  /// `-`, ASCII digits). For `en_US_POSIX` and `en_US` the table is not read at all.
  ///
  /// - Complexity: O(n) in the size of the table (about 1,000 locales), O(1) for `en_US` and
  ///   `en_US_POSIX`.
  public init(localeIdentifier identifier: String) {
    // A comparison, not a dictionary: a dictionary's first use costs start-up time too.
    if identifier == "en_US_POSIX" || identifier == "en_US" {
      self = DisplayFormat.english(identifier)
    } else {
      self = LocaleTable.format(for: identifier)
    }
  }

  /// Symbols given one by one.
  ///
  /// A `minimumGroupingDigits` below 1 counts as 1, and `digits` that are not ten strings are
  /// replaced by the ASCII digits.
  package init(
    localeIdentifier: String, decimalSeparator: String, groupingSeparator: String,
    groupingSize: Int, secondaryGroupingSize: Int, minimumGroupingDigits: Int = 1,
    minusSign: String, digits: [String], precision: Precision = .display
  ) {
    self.localeIdentifier = localeIdentifier
    self.decimalSeparator = decimalSeparator
    self.groupingSeparator = groupingSeparator
    self.groupingSize = groupingSize
    self.secondaryGroupingSize = secondaryGroupingSize
    self.minimumGroupingDigits = max(1, minimumGroupingDigits)
    self.minusSign = minusSign
    self.digits = digits.count == 10 ? digits : Self.asciiDigits
    self.precision = precision
    symbols = Symbols(
      decimal: Array(decimalSeparator.utf8), grouping: Array(groupingSeparator.utf8),
      minus: Array(minusSign.utf8),
      digits: self.digits == Self.asciiDigits ? nil : self.digits.map { Array($0.utf8) })
  }

  /// `0` through `9`, written out: made from integers (`String(3)`), they would run the standard
  /// library's formatting of numbers at every start (Documentation/Performance.md).
  private static let asciiDigits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]

  /// The same format without grouping separators: what calc writes where no person reads it
  /// (SPEC §3: `1234.5`, or `1234,5` in `de_DE`), keeping the locale's decimal separator,
  /// minus sign and digits.
  public var ungrouped: DisplayFormat {
    DisplayFormat(
      localeIdentifier: localeIdentifier, decimalSeparator: decimalSeparator,
      groupingSeparator: "", groupingSize: 0, secondaryGroupingSize: 0,
      minimumGroupingDigits: minimumGroupingDigits, minusSign: minusSign, digits: digits,
      precision: precision)
  }

  /// `en_US_POSIX`: the locale of `C`, `POSIX` or no locale at all.
  public static let posix = DisplayFormat(localeIdentifier: "en_US_POSIX")

  /// Plain numbers for scripts: no grouping, `.` as the decimal point, `-`, ASCII digits, and
  /// every significant digit of a computed value (`0.6666666666666666666666666666666667`, `1234`).
  ///
  /// Entries are shown as typed (`1234.50`, `0.`), scientific notation is used from the same
  /// magnitudes as in every format (`3.333333333333333333333333333333333E-10`), and errors are
  /// the same texts.
  public static let plain = DisplayFormat(
    localeIdentifier: "en_US_POSIX", decimalSeparator: ".", groupingSeparator: "",
    groupingSize: 0, secondaryGroupingSize: 0, minusSign: "-",
    digits: ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"], precision: .exact)

  /// The symbols `NumberFormatter` gives `en_US_POSIX` and `en_US`, known in advance.
  static func english(_ identifier: String) -> DisplayFormat {
    DisplayFormat(
      localeIdentifier: identifier, decimalSeparator: ".", groupingSeparator: ",",
      groupingSize: 3, secondaryGroupingSize: 0, minusSign: "-",
      digits: ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9"])
  }

  /// The same symbols as UTF-8, for rendering without allocating; derived from the above.
  private let symbols: Symbols

  private struct Symbols: Hashable, Sendable {
    let decimal: [UInt8]
    let grouping: [UInt8]
    let minus: [UInt8]
    /// The locale's digits, or `nil` for ASCII digits.
    let digits: [[UInt8]]?
  }

  // MARK: - Rendering

  /// The display of `brain`: its current number, or its error message.
  package func text(for brain: CalculatorBrain) -> String {
    var bytes: [UInt8] = []
    append(brain, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The display of a computed value.
  public func text(for value: Decimal34) -> String {
    var bytes: [UInt8] = []
    append(value, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The display of a computed number, rounded once from its exact value (SPEC §2 rule 15).
  public func text(for value: Number) -> String {
    var bytes: [UInt8] = []
    append(value, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The display of an entry, as typed.
  package func text(for entry: Entry) -> String {
    var bytes: [UInt8] = []
    append(entry, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The text of what a display shows: an entry as typed, a computed value in this format's
  /// precision, an error's message.
  public func text(for display: Display) -> String {
    var bytes: [UInt8] = []
    append(display, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the display of `brain` (``CalculatorBrain/display``), as UTF-8, to `bytes`.
  package func append(_ brain: CalculatorBrain, to bytes: inout [UInt8]) {
    append(brain.display, to: &bytes)
  }

  /// Appends what a display shows, as UTF-8, to `bytes`: an entry as typed, a computed value in
  /// this format's precision, an error's message.
  package func append(_ display: Display, to bytes: inout [UInt8]) {
    switch display {
    case .entry(let entry): append(entry, to: &bytes)
    case .value(let value): append(value, to: &bytes)
    case .error(let error): bytes.append(contentsOf: error.message.utf8)
    case .scientificEntry(let entry): append(entry, to: &bytes)
    case .exponential(let value): appendExponential(value, to: &bytes)
    case .programmer(let shown): append(shown, to: &bytes)
    case .date(let shown): appendDate(shown.value, to: &bytes)
    }
  }

  /// Appends date mode's `value` as its display shows it: plain in the exact precision (the
  /// answer of `--plain`), else in this format.
  private func appendDate(_ value: DateValue, to bytes: inout [UInt8]) {
    if precision == .exact {
      value.appendPlainText(to: &bytes)
    } else {
      bytes.append(contentsOf: value.text(in: self).utf8)
    }
  }

  /// Appends a Programmer mode value (SPEC §10): with this format's grouping, as a terminal
  /// shows it — DEC grouped by the locale, HEX and BIN in groups of 4 separated by a space (BIN
  /// padded with 0s to a multiple of 4 digits), OCT in groups of 3 —; without grouping
  /// (``plain``), the digits of the radix alone (`75BCD15`, `111`, `-5`).
  package func append(_ shown: ProgrammerValue, to bytes: inout [UInt8]) {
    guard groupingSize > 0 else {
      bytes.append(contentsOf: shown.plainDigits.utf8)
      return
    }
    if shown.radix == .dec {
      if shown.value < 0 { bytes.append(contentsOf: minusSign.utf8) }
      appendGrouped(Array(String(shown.value.magnitude).utf8), to: &bytes)
      return
    }
    bytes.append(contentsOf: DisplayFormat.groupedRadixDigits(shown).utf8)
  }

  /// The digits of a Programmer value in HEX, OCT or BIN grouped as Windows groups them: HEX
  /// and BIN in 4s separated by a space (BIN padded with 0s to a multiple of 4 digits; `0`
  /// stays `0`), OCT in 3s (`75B CD15`, `726 746 425`, `0111 0101`); DEC grouped in 3s with
  /// `,` (the panel's DEC row in en_US).
  ///
  /// - Complexity: O(w), w the word size.
  package static func groupedRadixDigits(_ shown: ProgrammerValue) -> String {
    var digits = Array(
      String(
        ProgrammerBrain.pattern(shown.value, shown.wordSize), radix: Int(shown.radix.base),
        uppercase: true
      ).utf8)
    let size: Int
    let separator: UInt8
    switch shown.radix {
    case .hex: (size, separator) = (4, UInt8(ascii: " "))
    case .oct: (size, separator) = (3, UInt8(ascii: " "))
    case .bin:
      (size, separator) = (4, UInt8(ascii: " "))
      if digits != [UInt8(ascii: "0")], digits.count % 4 != 0 {
        digits.insert(
          contentsOf: repeatElement(UInt8(ascii: "0"), count: 4 - digits.count % 4), at: 0)
      }
    case .dec:
      let sign = shown.value < 0 ? "-" : ""
      digits = Array(String(shown.value.magnitude).utf8)
      return sign
        + String(decoding: grouped(digits, size: 3, separator: UInt8(ascii: ",")), as: UTF8.self)
    }
    return String(decoding: grouped(digits, size: size, separator: separator), as: UTF8.self)
  }

  /// `digits` with `separator` between groups of `size`, counted from the right.
  private static func grouped(_ digits: [UInt8], size: Int, separator: UInt8) -> [UInt8] {
    var result: [UInt8] = []
    result.reserveCapacity(digits.count + digits.count / size)
    for (index, digit) in digits.enumerated() {
      if index > 0, (digits.count - index) % size == 0 { result.append(separator) }
      result.append(digit)
    }
    return result
  }

  /// The four rows of Programmer mode's panel for `value` in a word of `wordSize` (SPEC §10):
  /// HEX, DEC, OCT and BIN, grouped (DEC with this format's grouping).
  package func radixRows(_ value: Int64, wordSize: Key.WordSize) -> [String] {
    Key.Radix.allCases.map { radix in
      var bytes: [UInt8] = []
      append(ProgrammerValue(value: value, radix: radix, wordSize: wordSize), to: &bytes)
      return String(decoding: bytes, as: UTF8.self)
    }
  }

  /// Appends a Scientific-mode entry as typed, as Windows shows it: `1,234.5`, `1.5e+3`,
  /// `-1.e-5`, `0.e+0`.
  package func append(_ entry: ScientificEntry, to bytes: inout [UInt8]) {
    if entry.isNegative { bytes.append(contentsOf: symbols.minus) }
    let scale = Decimal34.powersOfTen[Int(entry.fractionDigitCount)]
    withDigits(entry.digits / scale) { appendGrouped($0, to: &bytes) }
    if entry.hasPoint {
      bytes.append(contentsOf: symbols.decimal)
      if entry.fractionDigitCount > 0 {
        withDigits(entry.digits % scale, width: Int(entry.fractionDigitCount)) {
          appendDigits($0, to: &bytes)
        }
      }
    }
    guard entry.hasExponent else { return }
    bytes.append(UInt8(ascii: "e"))
    if entry.isExponentNegative {
      bytes.append(contentsOf: symbols.minus)
    } else {
      bytes.append(UInt8(ascii: "+"))
    }
    withDigits(UInt128(entry.exponent)) { appendDigits($0, to: &bytes) }
  }

  /// Appends a computed value in scientific notation whatever its size, as F-E shows it:
  /// `1.2345E2`, `5E0`, `0E0`.
  package func appendExponential(_ value: Number, to bytes: inout [UInt8]) {
    if let decimal = value.shortDecimal { return appendExponential(decimal, to: &bytes) }
    // A fraction: its mantissa rounded once, to the digits the notation shows.
    let digits =
      precision == .display ? DisplayFormat.maximumFractionDigits + 1 : Decimal34.precision
    appendExponential(value.rounded(toSignificantDigits: digits), to: &bytes)
  }

  /// Appends a decimal in scientific notation whatever its size (``appendExponential(_:to:)-(Number,_)``).
  package func appendExponential(_ value: Decimal34, to bytes: inout [UInt8]) {
    guard let magnitude = value.magnitudeExponent else {
      appendDigits(CollectionOfOne(UInt8(ascii: "0")), to: &bytes)
      bytes.append(UInt8(ascii: "E"))
      appendDigits(CollectionOfOne(UInt8(ascii: "0")), to: &bytes)
      return
    }
    if value.isNegative { bytes.append(contentsOf: symbols.minus) }
    appendScientific(value, magnitude: magnitude, to: &bytes)
  }

  /// Appends Scientific mode's expression line: `1 + (2 - 3) =`, `sin₀(30)`, `8 log base 2 =`.
  ///
  /// Windows ends a line that waits for an operand with a space (`1 + `); calc does not, as in
  /// Standard mode (`1 +`).
  package func append(_ tokens: ExpressionTokens, to bytes: inout [UInt8]) {
    appendTokens(tokens, to: &bytes) { operand, bytes in
      // Rounded once from the exact number: `--plain` writes the 34 digits the operand keeps;
      // the display rounds a number that lies beside them as it lies.
      let value = precision == .display ? operand.valueForRounding : operand.value
      if operand.isExponential {
        appendExponential(value, to: &bytes)
      } else {
        append(value, to: &bytes)
      }
    } function: {
      $0.text
    }
  }

  /// Appends an expression line of the operator engine (``OperatorStack``), its operands as
  /// `operand` writes them and its functions named by `function`.
  ///
  /// - Complexity: O(n) in the number of tokens.
  private func appendTokens<Operand, Function>(
    _ tokens: TokenLine<OperatorToken<Operand, Function>>, to bytes: inout [UInt8],
    operand: (Operand, inout [UInt8]) -> Void, function: (Function) -> String
  ) {
    for (index, token) in tokens.enumerated() {
      switch token {
      case .space: if index + 1 < tokens.count { bytes.append(UInt8(ascii: " ")) }
      case .op(let op): bytes.append(contentsOf: op.title.utf8)
      case .operand(let value): operand(value, &bytes)
      case .open: bytes.append(UInt8(ascii: "("))
      case .close: bytes.append(UInt8(ascii: ")"))
      case .function(let name, let bracket):
        bytes.append(contentsOf: function(name).utf8)
        if bracket { bytes.append(UInt8(ascii: "(")) }
      case .equals: bytes.append(contentsOf: " =".utf8)
      }
    }
  }

  /// The text of an expression line of either mode.
  package func text(for line: ExpressionLine) -> String {
    var bytes: [UInt8] = []
    append(line, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends an expression line of either mode.
  package func append(_ line: ExpressionLine, to bytes: inout [UInt8]) {
    switch line {
    case .standard(let line): append(line, to: &bytes)
    case .scientific(let tokens): append(tokens, to: &bytes)
    case .programmer(let tokens, let radix, let wordSize):
      append(tokens, radix: radix, wordSize: wordSize, to: &bytes)
    case .formula(let text): bytes.append(contentsOf: text.utf8)
    case .date(let text): bytes.append(contentsOf: text.utf8)
    }
  }

  /// Appends Programmer mode's expression line, its operands in `radix` (`5 + 4 =`,
  /// `RoLC(5)`, `C Lsh 1`).
  package func append(
    _ tokens: ProgrammerTokens, radix: Key.Radix,
    wordSize: Key.WordSize, to bytes: inout [UInt8]
  ) {
    appendTokens(tokens, to: &bytes) { value, bytes in
      append(ProgrammerValue(value: value, radix: radix, wordSize: wordSize), to: &bytes)
    } function: {
      $0.title
    }
  }

  /// The display of `calculator`, in either mode.
  public func text(for calculator: Calculator) -> String {
    var bytes: [UInt8] = []
    append(calculator.display, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the display of `calculator`, in either mode.
  package func append(_ calculator: Calculator, to bytes: inout [UInt8]) {
    append(calculator.display, to: &bytes)
  }

  /// Appends the display of `calculator` and a newline: the line a script prints for a key
  /// line, the same bytes as ``append(_:to:)-(Calculator,_)`` and then `\n`.
  ///
  /// A computed value of at most 8 fraction digits and 19 digits in all, ungrouped with ASCII
  /// digits (a script's everyday answer; in the display's precision also a longer value or a
  /// fraction once rounded to 8 fraction digits), is written with its newline in one buffer and
  /// one append, without the general path's steps; Standard mode's without making the display.
  package func appendLine(_ calculator: Calculator, to bytes: inout [UInt8]) {
    // Standard mode's value is read without making the display (about 75 instructions a line),
    // and written where the state holds it: returned from an accessor, a fraction was copied
    // with the whole state and destroyed (about 440 instructions a line of `852.97/19=`,
    // Documentation/Performance.md, "The common key line, session 17").
    switch calculator.machine {
    case .standard(.equalled(let result, _, _, _)):
      appendStandardLine(result, to: &bytes)
      return
    case .standard(.leftOp(let value, _)), .standard(.left(.value(let value), _, _)),
      .standard(.leftOpRight(_, _, .value(let value))):
      appendStandardLine(value.number, to: &bytes)
      return
    case .standard, .scientific, .programmer, .formula, .date:
      break
    }
    if let value = calculator.shownDateValue {
      // As ``append(_:to:)-(Display,_)`` writes `.date`, without boxing the value for the
      // display (an allocation a date line; issue 51).
      appendDate(value, to: &bytes)
    } else {
      let display = calculator.display
      if writesShortLines, case .value(let number) = display,
        appendShortLine(number, to: &bytes)
      {
        return
      }
      append(display, to: &bytes)
    }
    bytes.append(UInt8(ascii: "\n"))
  }

  /// Appends Standard mode's computed value `number` and a newline, for ``appendLine(_:to:)``.
  @inline(__always)
  private func appendStandardLine(_ number: Number, to bytes: inout [UInt8]) {
    if let value = number.shortDecimal {
      if writesShortLines, appendShortLine(value, to: &bytes) { return }
      append(value, to: &bytes)
    } else {
      if writesShortLines, appendShortLine(number, to: &bytes) { return }
      append(number, to: &bytes)
    }
    bytes.append(UInt8(ascii: "\n"))
  }

  /// Whether a display's text may be written by ``appendShortLine(_:fractionDigits:isNegative:to:)``:
  /// ungrouped, with ASCII digits, the decimal separator and the minus sign at most 32 bytes.
  @inline(__always)
  private var writesShortLines: Bool {
    groupingSize == 0 && symbols.digits == nil
      && symbols.decimal.count + symbols.minus.count <= 32
  }

  /// Appends `number` and a newline as ``append(_:to:)-(Number,_)`` and a newline would, when
  /// the text is short: at most 8 fraction digits and 19 digits in all
  /// (``appendShortLine(_:fractionDigits:isNegative:to:)``); returns whether it did. Only
  /// where ``writesShortLines``.
  ///
  /// In the display's precision a fraction (`852.97/19=`) is rounded to 8 fraction digits
  /// first, as the general path rounds it, and is often short then.
  @inline(__always)
  private func appendShortLine(_ number: Number, to bytes: inout [UInt8]) -> Bool {
    if let value = number.shortDecimal { return appendShortLine(value, to: &bytes) }
    // A fraction: what ``append(_:to:)-(Number,_)`` rounds it to, when not scientific.
    guard precision == .display else { return false }
    let (rounded, isScientific) = number.rounded(
      fractionDigits: DisplayFormat.maximumFractionDigits,
      mantissaDigits: DisplayFormat.maximumFractionDigits + 1,
      scientificBelow: DisplayFormat.scientificBelowExponent,
      scientificFrom: DisplayFormat.scientificFromExponent)
    guard !isScientific, DisplayFormat.isShort(rounded) else { return false }
    appendShortLine(
      UInt64(rounded.coefficient), fractionDigits: Int(-rounded.exponent),
      isNegative: rounded.isNegative, to: &bytes)
    return true
  }

  /// Appends `value` and a newline as ``append(_:to:)-(Decimal34,_)`` and a newline would,
  /// when the text is short (``appendShortLine(_:to:)-(Number,_)``); returns whether it did.
  ///
  /// In the display's precision a longer value in range (a 34-digit quotient) is rounded to 8
  /// fraction digits first, as the general path rounds it, and is often short then.
  @inline(__always)
  private func appendShortLine(_ value: Decimal34, to bytes: inout [UInt8]) -> Bool {
    // A sum keeps 34 digits (`84222.08` as 8422208 and 27 zeros): the zeros beyond 8 fraction
    // digits dropped, exactly, it is short in either precision (a script's sums and
    // differences: about 660 instructions a line through the general path).
    if let coefficient = DisplayFormat.shortCoefficient(ofPadded: value) {
      appendShortLine(
        coefficient, fractionDigits: DisplayFormat.maximumFractionDigits,
        isNegative: value.isNegative, to: &bytes)
      return true
    }
    var shown = value
    if !DisplayFormat.isShort(value), precision == .display,
      let magnitude = value.magnitudeExponent,
      magnitude >= DisplayFormat.scientificBelowExponent,
      magnitude < DisplayFormat.scientificFromExponent
    {
      shown = value.rounded(toFractionDigits: DisplayFormat.maximumFractionDigits)
    }
    guard DisplayFormat.isShort(shown) else { return false }
    appendShortLine(
      UInt64(shown.coefficient), fractionDigits: Int(-shown.exponent),
      isNegative: value.isNegative, to: &bytes)
    return true
  }

  /// The coefficient of `value` at 8 fraction digits when it has more, all of them zeros beyond
  /// the 8th, and that coefficient fits a `UInt64`: the same number, short
  /// (``isShort(_:)``); `nil` otherwise.
  /// - Complexity: one 128-bit division.
  @inline(__always)
  static func shortCoefficient(ofPadded value: Decimal34) -> UInt64? {
    let drop = -Int(value.exponent) - DisplayFormat.maximumFractionDigits
    guard drop > 0, drop <= Decimal34.precision else { return nil }
    // 10^drop divides it only if 2^drop does: a test of the low bits before the division.
    let low = UInt64(truncatingIfNeeded: value.coefficient)
    guard low & ((1 << UInt64(min(drop, 63))) &- 1) == 0 else { return nil }
    let (quotient, remainder) = value.coefficient.quotientAndRemainder(
      dividingBy: Decimal34.powersOfTen[drop])
    guard remainder == 0, quotient <= UInt128(UInt64.max) else { return nil }
    return UInt64(quotient)
  }

  /// Whether `value` has at most 8 fraction digits and its coefficient at most 19 digits (no
  /// exponent above 0): what ``appendShortLine(_:fractionDigits:isNegative:to:)`` writes.
  @inline(__always)
  private static func isShort(_ value: Decimal34) -> Bool {
    value.exponent <= 0 && value.exponent >= Int32(-DisplayFormat.maximumFractionDigits)
      && value.coefficient <= UInt128(UInt64.max)
  }

  /// Appends `coefficient` × 10^-`fractionDigits` (`fractionDigits` at most 8), negative when
  /// `isNegative` and not zero, ungrouped with ASCII digits, and a newline (the decimal
  /// separator and the minus sign at most 32 bytes together): the text
  /// ``append(_:to:)-(Decimal34,_)`` gives (`0` for zero, the fraction without trailing zeros).
  private func appendShortLine(
    _ coefficient: UInt64, fractionDigits: Int, isNegative: Bool, to bytes: inout [UInt8]
  ) {
    let decimal = symbols.decimal
    let minus = symbols.minus
    // 20 digits, a newline, and the separator and the minus sign, at most 32 bytes together. A
    // constant size: a size known only at run time is checked against the stack's room first.
    let capacity = 64
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
      var start = capacity - 1
      buffer[start] = UInt8(ascii: "\n")
      var rest = coefficient
      var fraction = fractionDigits
      while fraction > 0, rest % 10 == 0 {
        rest /= 10
        fraction -= 1
      }
      if rest != 0, fraction > 0 {
        // The fraction's digits (leading zeros included), two at a time, then the separator.
        let pairs = DisplayFormat.digitPairs.utf8Start
        while fraction >= 2 {
          let pair = Int(truncatingIfNeeded: rest % 100) &* 2
          rest /= 100
          start -= 2
          buffer[start] = pairs[pair]
          buffer[start + 1] = pairs[pair + 1]
          fraction -= 2
        }
        if fraction == 1 {
          start -= 1
          buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
          rest /= 10
        }
        for byte in decimal.reversed() {
          start -= 1
          buffer[start] = byte
        }
      }
      // The integer digits, at least one.
      start = DisplayFormat.writeDigits(rest, atLeast: 1, into: buffer, before: start)
      if isNegative, coefficient != 0 {
        for byte in minus.reversed() {
          start -= 1
          buffer[start] = byte
        }
      }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<capacity]))
    }
  }

  /// The expression line of `calculator`, in either mode.
  public func expression(for calculator: Calculator) -> String {
    var bytes: [UInt8] = []
    appendExpression(calculator, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the expression line of `calculator`, in either mode.
  package func appendExpression(_ calculator: Calculator, to bytes: inout [UInt8]) {
    switch calculator.machine {
    case .standard(let brain): appendExpression(brain, to: &bytes)
    case .scientific(let box): append(box.brain.shownLine, to: &bytes)
    case .formula, .programmer, .date: append(calculator.expressionLine, to: &bytes)
    }
  }

  // MARK: - The expression line

  /// The expression line of `brain` (SPEC §3.1): `12 +`, `12 + 3 =`, `√(9)`, `1 ÷ 0 =`; empty
  /// at the start and while typing a first number.
  package func expression(for brain: CalculatorBrain) -> String {
    var bytes: [UInt8] = []
    appendExpression(brain, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the expression line of `brain` (``CalculatorBrain/expressionLine``), as UTF-8, to
  /// `bytes`.
  ///
  /// Numbers are written like computed values in the display; operators are the button titles
  /// with a space on each side.
  package func appendExpression(_ brain: CalculatorBrain, to bytes: inout [UInt8]) {
    append(brain.expressionLine, to: &bytes)
  }

  /// The text of an expression line: `12 + 3 =`, `√(9)`.
  package func text(for line: CalculatorBrain.Line) -> String {
    var bytes: [UInt8] = []
    append(line, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Appends the text of an expression line, as UTF-8, to `bytes`.
  package func append(_ line: CalculatorBrain.Line, to bytes: inout [UInt8]) {
    switch line {
    case .empty:
      return
    case .term(let term):
      append(term, to: &bytes)
    case .operation(let left, let op, let right, let closing):
      append(left, to: &bytes)
      if let op {
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: op.title.utf8)
      }
      if let right {
        bytes.append(UInt8(ascii: " "))
        append(right, to: &bytes)
      }
      switch closing {
      case .none: break
      case .equals: bytes.append(contentsOf: " =".utf8)
      case .op(let op): bytes.append(contentsOf: (" " + op.title).utf8)
      }
    }
  }

  /// Appends `√(√(256))`-style text: the base number inside its wrappers, innermost first. Past
  /// the wrappers a term keeps, the rest are written `…(…)`.
  private func append(_ term: CalculatorBrain.Term, to bytes: inout [UInt8]) {
    let wrappers = term.wrappers
    if Int(term.depth) > wrappers.count { bytes.append(contentsOf: "…(".utf8) }
    for wrapper in wrappers.reversed() {
      bytes.append(contentsOf: wrapper.prefix.utf8)
      bytes.append(UInt8(ascii: "("))
    }
    append(term.base, to: &bytes)
    bytes.append(contentsOf: repeatElement(UInt8(ascii: ")"), count: wrappers.count))
    if Int(term.depth) > wrappers.count { bytes.append(UInt8(ascii: ")")) }
  }

  /// Appends the display of an entry, as typed, to `bytes`.
  package func append(_ entry: Entry, to bytes: inout [UInt8]) {
    if entry.isNegative { bytes.append(contentsOf: symbols.minus) }
    let scale = Entry.pow10(Int(entry.fractionDigitCount))
    withDigits(UInt128(entry.digits / scale)) { integer in
      appendGrouped(integer, to: &bytes)
    }
    guard entry.hasPoint else { return }
    bytes.append(contentsOf: symbols.decimal)
    guard entry.fractionDigitCount > 0 else { return }
    withDigits(UInt128(entry.digits % scale), width: Int(entry.fractionDigitCount)) {
      appendDigits($0, to: &bytes)
    }
  }

  /// Appends the display of a computed number to `bytes`: a decimal (exact or rounded) as
  /// ``append(_:to:)-(Decimal34,_)`` writes it; a fraction rounded once from its exact value to
  /// the digits shown (`2/3` → `0.66666667`; `--plain`, 34 digits), in the notation its 34-digit
  /// value would be written in (SPEC §2 rule 15, §3).
  package func append(_ value: Number, to bytes: inout [UInt8]) {
    if let decimal = value.shortDecimal { return append(decimal, to: &bytes) }
    let display = precision == .display
    let (rounded, isScientific) = value.rounded(
      fractionDigits: display ? DisplayFormat.maximumFractionDigits : nil,
      mantissaDigits: display ? DisplayFormat.maximumFractionDigits + 1 : Decimal34.precision,
      scientificBelow: DisplayFormat.scientificBelowExponent,
      scientificFrom: DisplayFormat.scientificFromExponent)
    if isScientific, let magnitude = rounded.magnitudeExponent {
      if rounded.isNegative { bytes.append(contentsOf: symbols.minus) }
      appendScientific(rounded, magnitude: magnitude, to: &bytes)
      return
    }
    append(rounded, to: &bytes)
  }

  /// Appends the display of a computed value to `bytes`.
  package func append(_ value: Decimal34, to bytes: inout [UInt8]) {
    guard let magnitude = value.magnitudeExponent else {
      appendDigits(CollectionOfOne(UInt8(ascii: "0")), to: &bytes)
      return
    }
    if value.isNegative { bytes.append(contentsOf: symbols.minus) }
    // The common case, a script's hot path: at most 8 fraction digits (so no rounding in
    // either precision: `.exact` shows every digit, and there are no more), a coefficient of
    // at most 19 digits, ASCII digits. Written straight from a UInt64.
    if symbols.digits == nil, value.exponent <= 0,
      value.exponent >= Int32(-DisplayFormat.maximumFractionDigits),
      value.coefficient <= UInt128(UInt64.max)
    {
      appendSmall(UInt64(value.coefficient), fractionDigits: Int(-value.exponent), to: &bytes)
      return
    }
    if magnitude < DisplayFormat.scientificBelowExponent
      || magnitude >= DisplayFormat.scientificFromExponent
    {
      appendScientific(value, magnitude: magnitude, to: &bytes)
      return
    }
    let shown =
      precision == .display
      ? value.rounded(toFractionDigits: DisplayFormat.maximumFractionDigits) : value
    let coefficient = shown.coefficient
    let exponent = Int(shown.exponent)
    if groupingSize == 0, symbols.digits == nil, symbols.decimal.count <= 32 {
      appendUngrouped(coefficient, exponent: exponent, to: &bytes)
      return
    }
    if exponent >= 0 {
      // An integer below 10^34: its digits, then `exponent` zeros.
      withDigits(coefficient, trailingZeros: exponent) { appendGrouped($0, to: &bytes) }
      return
    }
    let fractionCount = -exponent
    withDigits(coefficient, width: fractionCount + 1) { all in
      let split = all.endIndex - fractionCount
      appendGrouped(all[..<split], to: &bytes)
      var fraction = all[split...]
      while fraction.last == UInt8(ascii: "0") { fraction = fraction.dropLast() }
      if !fraction.isEmpty {
        bytes.append(contentsOf: symbols.decimal)
        appendDigits(fraction, to: &bytes)
      }
    }
  }

  /// Appends `coefficient` × 10^-`fractionDigits` (nonzero, `fractionDigits` at most 8): the
  /// integer part grouped, then the fraction without trailing zeros; the same text as the
  /// general path gives.
  private func appendSmall(_ coefficient: UInt64, fractionDigits: Int, to bytes: inout [UInt8]) {
    var rest = coefficient
    var fraction = fractionDigits
    while fraction > 0, rest % 10 == 0 {
      rest /= 10
      fraction -= 1
    }
    guard groupingSize == 0 else {
      withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
        var start = 32
        repeat {
          start -= 1
          buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest % 10)
          rest /= 10
        } while rest != 0 || 32 - start <= fraction
        let split = 32 - fraction
        appendGrouped(UnsafeBufferPointer(rebasing: buffer[start..<split]), to: &bytes)
        if fraction > 0 {
          bytes.append(contentsOf: symbols.decimal)
          bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[split..<32]))
        }
      }
      return
    }
    // Ungrouped (a script's output): the whole text made from the right in one buffer, two
    // digits at a time, then appended at once, since each append costs more than its bytes.
    let decimal = symbols.decimal
    let capacity = 32 + decimal.count
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
      var start = capacity
      var integer = rest
      if fraction > 0 {
        var scale: UInt64 = 10
        for _ in 1..<fraction { scale &*= 10 }
        integer = rest / scale
        start = DisplayFormat.writeDigits(
          rest - integer &* scale, atLeast: fraction, into: buffer, before: start)
        for byte in decimal.reversed() {
          start -= 1
          buffer[start] = byte
        }
      }
      start = DisplayFormat.writeDigits(integer, atLeast: 1, into: buffer, before: start)
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<capacity]))
    }
  }

  /// The pairs of digits 00 to 99, for writing two digits at a time.
  private static var digitPairs: StaticString {
    """
    00010203040506070809101112131415161718192021222324252627282930313233343536373839\
    40414243444546474849505152535455565758596061626364656667686970717273747576777879\
    8081828384858687888990919293949596979899
    """
  }

  /// Writes the decimal digits of `value` into `buffer` right before `end`, with leading zeros
  /// up to `minimum` digits (at least one digit), and returns where they start.
  /// - Complexity: O(digits).
  @inline(__always)
  private static func writeDigits(
    _ value: UInt64, atLeast minimum: Int, into buffer: UnsafeMutableBufferPointer<UInt8>,
    before end: Int
  ) -> Int {
    let pairs = digitPairs.utf8Start
    var rest = value
    var start = end
    while rest >= 10 {
      let pair = Int(truncatingIfNeeded: rest % 100) &* 2
      rest /= 100
      start -= 2
      buffer[start] = pairs[pair]
      buffer[start + 1] = pairs[pair + 1]
    }
    if rest > 0 || start == end {
      start -= 1
      buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest)
    }
    while end - start < minimum {
      start -= 1
      buffer[start] = UInt8(ascii: "0")
    }
    return start
  }

  /// Appends `coefficient` × 10^`exponent` (below 10^34, at least 10^-8 when not zero) with
  /// ASCII digits and no grouping (a script's output of a 34-digit result): the digits made
  /// from the right in one buffer, the fraction's trailing zeros dropped, then appended at once;
  /// the same text as the general path gives.
  /// - Complexity: O(digits), with one 128-bit division.
  private func appendUngrouped(_ coefficient: UInt128, exponent: Int, to bytes: inout [UInt8]) {
    // At most 34 digits and 8 zeros after the point before them; room before them for the
    // integer digits to move left by the decimal separator.
    let decimal = symbols.decimal
    // A constant size (a size known only at run time is checked against the stack's room
    // first): ``append(_:to:)-(Decimal34,_)`` sends no separator longer than 32 bytes here.
    let capacity = 96
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) { buffer in
      var start = capacity
      var rest = coefficient
      repeat {
        // The low 19 digits (all of them, zeros included) while more remain, then the rest.
        var chunk: UInt64
        var count: Int
        if rest > UInt128(UInt64.max) {
          let (quotient, remainder) = rest.quotientAndRemainder(
            dividingBy: 10_000_000_000_000_000_000)
          (chunk, count, rest) = (UInt64(remainder), 19, quotient)
        } else {
          (chunk, count, rest) = (UInt64(rest), 1, 0)
        }
        start = DisplayFormat.writeDigits(chunk, atLeast: count, into: buffer, before: start)
      } while rest != 0
      guard exponent < 0 else {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<capacity]))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: exponent))
        return
      }
      // A 0 before the point, and zeros between it and the digits.
      let split = capacity + exponent
      while start >= split {
        start -= 1
        buffer[start] = UInt8(ascii: "0")
      }
      var end = capacity
      while end > split, buffer[end - 1] == UInt8(ascii: "0") { end -= 1 }
      guard end > split else {
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<split]))
        return
      }
      // The integer digits move left to make room for the separator: one append.
      for index in start..<split { buffer[index - decimal.count] = buffer[index] }
      start -= decimal.count
      for (offset, byte) in decimal.enumerated() { buffer[split - decimal.count + offset] = byte }
      bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<end]))
    }
  }

  /// Appends a nonzero value of magnitude `magnitude` in scientific notation.
  private func appendScientific(_ value: Decimal34, magnitude: Int, to bytes: inout [UInt8]) {
    let mantissaDigits =
      precision == .display ? DisplayFormat.maximumFractionDigits + 1 : Decimal34.precision
    // The coefficient is rounded as an integer, so that the exponent range plays no part (at its
    // top, the value itself would be brought into range instead). Rounding up to the next power
    // of ten (9.999999999E-9 to 1E-8) moves the leading digit.
    let integer = Decimal34(coefficient: value.coefficient, exponent: 0)
    let mantissa = integer.rounded(toSignificantDigits: mantissaDigits)
    let exponent = magnitude + (mantissa.magnitudeExponent ?? 0) - (integer.magnitudeExponent ?? 0)
    withDigits(mantissa.coefficient) { all in
      appendDigits(all.prefix(1), to: &bytes)
      var fraction = all.dropFirst()
      while fraction.last == UInt8(ascii: "0") { fraction = fraction.dropLast() }
      if !fraction.isEmpty {
        bytes.append(contentsOf: symbols.decimal)
        appendDigits(fraction, to: &bytes)
      }
    }
    bytes.append(UInt8(ascii: "E"))
    if exponent < 0 { bytes.append(contentsOf: symbols.minus) }
    withDigits(UInt128(exponent.magnitude)) { appendDigits($0, to: &bytes) }
  }

  /// Calls `body` with the ASCII digits of `value`, zero-padded on the left to `width`, followed
  /// by `trailingZeros` zeros; the digits live on the stack.
  private func withDigits(
    _ value: UInt128, width: Int = 1, trailingZeros: Int = 0,
    _ body: (UnsafeMutableBufferPointer<UInt8>.SubSequence) -> Void
  ) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 128) { buffer in
      var end = 64
      for index in end..<(end + trailingZeros) { buffer[index] = UInt8(ascii: "0") }
      var start = end
      end += trailingZeros
      // Two UInt64 chunks cover every coefficient below 10^38; UInt64 division is cheap.
      var rest = value
      repeat {
        var chunk: UInt64
        if rest > UInt128(UInt64.max) {
          let (quotient, remainder) = rest.quotientAndRemainder(
            dividingBy: 10_000_000_000_000_000_000)
          chunk = UInt64(remainder)
          rest = quotient
          for _ in 0..<19 {
            start -= 1
            buffer[start] = UInt8(ascii: "0") + UInt8(chunk % 10)
            chunk /= 10
          }
        } else {
          chunk = UInt64(rest)
          rest = 0
          repeat {
            start -= 1
            buffer[start] = UInt8(ascii: "0") + UInt8(chunk % 10)
            chunk /= 10
          } while chunk != 0
        }
      } while rest != 0
      while 64 - start < width {
        start -= 1
        buffer[start] = UInt8(ascii: "0")
      }
      body(buffer[start..<end])
    }
  }

  /// Appends ASCII digits in the locale's digits.
  private func appendDigits<Digits: Collection<UInt8>>(_ ascii: Digits, to bytes: inout [UInt8]) {
    guard let digits = symbols.digits else {
      bytes.append(contentsOf: ascii)
      return
    }
    for digit in ascii { bytes.append(contentsOf: digits[Int(digit - UInt8(ascii: "0"))]) }
  }

  /// Appends ASCII integer digits with the locale's grouping.
  private func appendGrouped<Digits: Collection<UInt8>>(_ ascii: Digits, to bytes: inout [UInt8])
  where Digits.Index == Int {
    guard groupingSize > 0, ascii.count >= groupingSize + minimumGroupingDigits else {
      appendDigits(ascii, to: &bytes)
      return
    }
    let secondary = secondaryGroupingSize > 0 ? secondaryGroupingSize : groupingSize
    // Group boundaries counted from the right: groupingSize, then every `secondary` digits.
    let leading = (ascii.count - groupingSize) % secondary
    var index = ascii.startIndex
    if leading > 0 {
      appendDigits(ascii[index..<(index + leading)], to: &bytes)
      index += leading
      bytes.append(contentsOf: symbols.grouping)
    }
    while ascii.endIndex - index > groupingSize {
      appendDigits(ascii[index..<(index + secondary)], to: &bytes)
      index += secondary
      bytes.append(contentsOf: symbols.grouping)
    }
    appendDigits(ascii[index...], to: &bytes)
  }
}
