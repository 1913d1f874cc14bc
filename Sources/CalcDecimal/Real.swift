/// A number of working precision for the elementary functions: `±mantissa × 10^exponent`, the
/// mantissa kept to a number of significant digits that each operation is given. Internal:
/// results reach the outside only rounded to 34 digits.
struct Real {
  var isNegative: Bool
  var mantissa: BigUInt
  var exponent: Int

  static let zero = Real(isNegative: false, mantissa: .zero, exponent: 0)
  static let one = Real(1)

  init(isNegative: Bool, mantissa: BigUInt, exponent: Int) {
    self.isNegative = isNegative && !mantissa.isZero
    self.mantissa = mantissa
    self.exponent = exponent
  }

  init(_ value: Int) {
    self.init(isNegative: value < 0, mantissa: BigUInt(UInt128(value.magnitude)), exponent: 0)
  }

  init(_ value: Decimal34) {
    self.init(
      isNegative: value.isNegative, mantissa: BigUInt(value.coefficient),
      exponent: Int(value.exponent))
  }

  /// A constant from its decimal digits (`3.14159…`).
  ///
  /// The digits are taken nine at a time, so π's 330 cost 37 multiplications of the mantissa,
  /// not 330 (digit by digit, the first function that needs π in a process paid about 0.7 M
  /// instructions for 250 digits).
  /// - Complexity: O(n²) in the number of digits.
  init(digits text: String) {
    var mantissa = BigUInt.zero
    var exponent = 0
    var afterPoint = false
    var chunk: UInt32 = 0
    var scale: UInt32 = 1
    for character in text.utf8 {
      if character == UInt8(ascii: ".") {
        afterPoint = true
        continue
      }
      chunk = chunk * 10 + UInt32(character - UInt8(ascii: "0"))
      scale *= 10
      if afterPoint { exponent -= 1 }
      if scale == 1_000_000_000 {
        mantissa = mantissa * scale + BigUInt(Int(chunk))
        (chunk, scale) = (0, 1)
      }
    }
    if scale > 1 { mantissa = mantissa * scale + BigUInt(Int(chunk)) }
    self.init(isNegative: false, mantissa: mantissa, exponent: exponent)
  }

  var isZero: Bool { mantissa.isZero }

  /// ⌊log10 |x|⌋; `nil` for zero.
  var magnitude: Int? { isZero ? nil : exponent + mantissa.digitCount - 1 }

  var negated: Real { Real(isNegative: !isNegative, mantissa: mantissa, exponent: exponent) }
  var absolute: Real { Real(isNegative: false, mantissa: mantissa, exponent: exponent) }

  /// The integer nearest to the value (half away from zero), if it is below 2^62 in magnitude.
  var nearestInteger: Int? {
    if isZero { return 0 }
    if exponent >= 0 {
      guard let value = mantissa.shifted(by: exponent).uint128, value < 1 << 62 else { return nil }
      return isNegative ? -Int(value) : Int(value)
    }
    let (whole, _) = mantissa.truncated(by: -exponent)
    let (half, _) = mantissa.shifted(by: 1).truncated(by: -exponent)  // 10x / 10^k
    guard let integer = whole.uint128, integer < 1 << 62, let tenth = half.uint128 else {
      return nil
    }
    let up = tenth % 10 >= 5
    let value = Int(integer) + (up ? 1 : 0)
    return isNegative ? -value : value
  }

  /// Whether the value is an integer.
  var isInteger: Bool {
    if isZero || exponent >= 0 { return true }
    return !mantissa.truncated(by: -exponent).1
  }

  /// The rounded 34-digit value (half to even) when this value is exact.
  var decimal34: Decimal34 { Real.round(self, exact: true).value }

  /// Rounds to 34 digits, half to even, and says whether the rounding is in doubt: the value
  /// (an approximation good to about `digits - 8` digits) lies so near a midpoint between two
  /// 34-digit values that its error could put it on either side.
  static func round(_ x: Real, exact: Bool, digits: Int = 0) -> (value: Decimal34, inDoubt: Bool) {
    let count = x.mantissa.digitCount
    guard count > 34 else {
      return (
        Decimal34(
          coefficient: x.mantissa.uint128 ?? 0, exponent: x.exponent, isNegative: x.isNegative),
        false
      )
    }
    let drop = count - 34
    // The kept digits and the rest in one pass over the limbs (a division by a power of ten):
    // no long division, no product and difference for the rest.
    let (kept, remainder) = x.mantissa.split(atDigit: drop)
    let twice = remainder * 2
    let unit = BigUInt.powerOfTen(drop)
    var up: Bool
    if twice == unit {
      up = kept & 1 == 1
    } else {
      up = unit < twice
    }
    var inDoubt = false
    if !exact {
      // The approximation is good to about digits - 8 significant digits: its last
      // count - (digits - 8) digits may be wrong, so a midpoint within ten times that (one
      // digit of margin) could be on either side.
      let unsure = max(0, count - (digits - 8)) + 1
      if unsure >= drop {
        inDoubt = true
      } else {
        let distance = twice < unit ? unit - twice : twice - unit
        inDoubt = distance < BigUInt.powerOfTen(unsure) * 2
      }
    }
    var coefficient = kept
    if up { coefficient += 1 }
    return (
      Decimal34(coefficient: coefficient, exponent: x.exponent + drop, isNegative: x.isNegative),
      inDoubt
    )
  }
}

/// Fixed-point numbers for the series: a ``FixedValue`` counting units of 10^-(9·`limbs`), so
/// that a sum needs no alignment and a product is cut by dropping whole limbs. Each operation
/// truncates: an error below one unit, and for a product, made from the partial products that
/// reach a unit only, below one unit plus 10^-8.
struct Fixed {
  /// The limbs after the point.
  let limbs: Int

  /// The fixed point with at least `digits` digits after the point; `nil` when its values
  /// (below 10^(9·`limbs`) times a little more than one limb) or products could outgrow a
  /// ``FixedValue`` (more than 144 digits: the series then sum in floating point).
  init?(digits: Int) {
    limbs = (max(digits, 1) + 8) / 9
    if limbs + 2 > FixedValue.capacity { return nil }
  }

  /// One unit's exponent: −9·`limbs`.
  var exponent: Int { -9 * limbs }

  /// 1.
  var one: FixedValue { FixedValue.one(limbs: limbs) }

  /// |x|, truncated to a unit; |x| below 10^9.
  func from(_ x: Real) -> FixedValue {
    let shift = x.exponent - exponent
    return FixedValue(
      shift >= 0 ? x.mantissa.shifted(by: shift) : x.mantissa.truncated(by: -shift).0)
  }

  /// a·b, truncated, from the partial products that reach a unit
  /// (``FixedValue/product(_:_:droppingLimbs:)``: an error below one unit plus 10^-8).
  /// - Complexity: O(n·m) in the limb counts.
  func multiply(_ a: FixedValue, _ b: FixedValue) -> FixedValue {
    FixedValue.product(a, b, droppingLimbs: limbs)
  }

  /// a², truncated as ``multiply(_:_:)`` truncates (the same value), in about half its products.
  /// - Complexity: O(n²) in the limb count.
  func square(_ a: FixedValue) -> FixedValue {
    FixedValue.square(a, droppingLimbs: limbs)
  }

  /// The value `a` units as a ``Real`` of sign `negative`.
  func real(_ a: FixedValue, negative: Bool = false) -> Real {
    Real(isNegative: negative, mantissa: a.bigUInt, exponent: exponent)
  }
}

/// Operations on ``Real`` at a number of significant digits.
struct Working {
  /// The significant digits kept by each operation.
  let digits: Int

  /// The value with at least `digits` significant digits, truncated toward zero by whole
  /// limbs: up to 8 more digits are kept, and no division by a power of ten is needed (the
  /// exact cut cost a division per limb in every operation).
  /// - Complexity: O(limbs).
  func normalized(_ x: Real) -> Real {
    let excess = x.mantissa.digitCount - digits
    guard excess >= 9 else { return x }
    let drop = excess / 9
    return Real(
      isNegative: x.isNegative, mantissa: x.mantissa.droppingLimbs(drop),
      exponent: x.exponent + 9 * drop)
  }

  func add(_ a: Real, _ b: Real) -> Real {
    if a.isZero { return normalized(b) }
    if b.isZero { return normalized(a) }
    let (ma, mb) = (a.magnitude!, b.magnitude!)
    if ma - mb > digits + 2 { return normalized(a) }
    if mb - ma > digits + 2 { return normalized(b) }
    let exponent = min(a.exponent, b.exponent)
    // `normalized` of the aligned sum or difference, built once (``BigUInt/alignedSum``).
    let (mantissa, dropped, secondLarger) = BigUInt.alignedSum(
      a.mantissa, shiftedBy: a.exponent - exponent, b.mantissa, shiftedBy: b.exponent - exponent,
      subtract: a.isNegative != b.isNegative, keeping: digits)
    return Real(
      isNegative: secondLarger ? b.isNegative : a.isNegative, mantissa: mantissa,
      exponent: exponent + 9 * dropped)
  }

  func subtract(_ a: Real, _ b: Real) -> Real { add(a, b.negated) }

  func multiply(_ a: Real, _ b: Real) -> Real {
    // `normalized(a·b)`, cut while the product is still in scratch.
    let (mantissa, dropped) = BigUInt.product(a.mantissa, b.mantissa, digits: digits)
    return Real(
      isNegative: a.isNegative != b.isNegative, mantissa: mantissa,
      exponent: a.exponent + b.exponent + 9 * dropped)
  }

  func multiply(_ a: Real, _ small: Int) -> Real {
    if small.magnitude > UInt32.max { return multiply(a, Real(small)) }
    return normalized(
      Real(
        isNegative: a.isNegative != (small < 0), mantissa: a.mantissa * UInt32(small.magnitude),
        exponent: a.exponent))
  }

  /// `a ÷ b`, `b` nonzero.
  func divide(_ a: Real, _ b: Real) -> Real {
    if a.isZero { return .zero }
    let shift = max(0, digits + b.mantissa.digitCount - a.mantissa.digitCount + 2)
    let (quotient, _) = BigUInt.divide(
      a.mantissa.shifted(by: shift), by: b.mantissa, remainder: false)
    return normalized(
      Real(
        isNegative: a.isNegative != b.isNegative, mantissa: quotient,
        exponent: a.exponent - shift - b.exponent))
  }

  /// `a ÷ small`, `small` a nonzero integer below 2^32 in magnitude.
  func divide(_ a: Real, _ small: Int) -> Real {
    if a.isZero { return .zero }
    if small.magnitude > UInt32.max { return divide(a, Real(small)) }
    // A quotient of `digits` or `digits + 1` digits, divided in place: no array but the shifted
    // dividend's.
    var divisorDigits = 1
    var rest = small.magnitude / 10
    while rest > 0 {
      divisorDigits += 1
      rest /= 10
    }
    let shift = max(0, digits - a.mantissa.digitCount + divisorDigits)
    var quotient = a.mantissa.shifted(by: shift)
    _ = quotient.formQuotient(dividingBy: UInt32(small.magnitude))
    return Real(
      isNegative: a.isNegative != (small < 0), mantissa: quotient, exponent: a.exponent - shift)
  }

  /// The square root of `a` ≥ 0.
  func squareRoot(_ a: Real) -> Real {
    if a.isZero { return .zero }
    // N = mantissa × 10^k with an even exponent and about 2·digits + 4 digits.
    var shift = max(0, 2 * digits + 4 - a.mantissa.digitCount)
    if (a.exponent - shift) % 2 != 0 { shift += 1 }
    let n = a.mantissa.shifted(by: shift)
    var x = BigUInt.powerOfTen((n.digitCount + 1) / 2 + 1)
    while true {
      let (q, _) = BigUInt.divide(n, by: x, remainder: false)
      let next = (x + q).divided(by: 2).0
      if !(next < x) { break }
      x = next
    }
    return normalized(Real(isNegative: false, mantissa: x, exponent: (a.exponent - shift) / 2))
  }

  /// `x` to the integer power `n` ≥ 0.
  func power(_ x: Real, _ n: Int) -> Real {
    var result = Real.one
    var base = x
    var n = n
    while n > 0 {
      if n & 1 == 1 { result = multiply(result, base) }
      n >>= 1
      if n > 0 { base = multiply(base, base) }
    }
    return result
  }

  // MARK: - Constants (330 digits of π, 130 of ln 10 and ln 2)

  static let piDigits = Real(
    digits:
      "3.14159265358979323846264338327950288419716939937510582097494459230781640628620899862803482534211706798214808651328230664709384460955058223172535940812848111745028410270193852110555964462294895493038196442881097566593344612847564823378678316527120190914564856692346034861045432664821339360726024914127372458700660631558817488152092"
  )
  static let ln10Digits = Real(
    digits:
      "2.302585092994045684017991454684364207601101488628772976033327900967572609677352480235997205089598298341967784042286248633409525465"
  )
  static let ln2Digits = Real(
    digits:
      "0.6931471805599453094172321214581765680755001343602552541206800094933936219696947156058633269964186875420014810205706857336855202358"
  )

  /// π/2 to 330 digits (π's digits halved, exactly).
  static let halfPiDigits = Real(
    isNegative: false, mantissa: piDigits.mantissa * 5, exponent: piDigits.exponent - 1)
  /// 2/π to about 328 digits, for the quotient of a radian argument by π/2 (a product, not a
  /// division).
  static let twoOverPiDigits = Working(digits: 330).divide(Real(2), piDigits)

  var pi: Real { normalized(Working.piDigits) }
  var ln10: Real { normalized(Working.ln10Digits) }
  var ln2: Real { normalized(Working.ln2Digits) }

  // MARK: - Series

  /// e^x for any x whose result is within range (the caller checks).
  ///
  /// x = j·ln 10 + f with |f| ≤ 1.16, so that e^x = 10^j·e^f costs no power; e^f is f/2^10 by
  /// Taylor in fixed point (``Fixed``; below 10^-20 in floating point, each term carried only to
  /// the digits it still contributes), then squared 10 times.
  /// - Complexity: O(d³) in the digits d.
  func exp(_ x: Real) -> Real {
    if x.isZero { return .one }
    let wide = Working(digits: digits + 12)
    let rough = Working(digits: 24)
    let j = rough.divide(x, rough.ln10).nearestInteger ?? 0
    var f = x
    if j != 0 {
      let precise = Working(digits: digits + 12 + String(j.magnitude).count)
      f = precise.subtract(x, precise.multiply(precise.ln10, j))
    }
    let r = wide.divide(f, 1024)
    if let m = r.magnitude, m >= -20, let fixed = Fixed(digits: digits + 8) {
      // In fixed point (r and the sum below 1.002): units of 10^-(digits + 8); the squarings
      // multiply the error by 1024, the terms add a unit each.
      let rf = fixed.from(r)
      var sum = fixed.one
      var term = sum
      var i: UInt32 = 1
      while true {
        term = fixed.multiply(term, rf)
        _ = term.formQuotient(dividingBy: i)
        if term.isZero { break }
        sum = r.isNegative && i % 2 == 1 ? sum - term : sum + term
        i += 1
      }
      for _ in 0..<10 { sum = fixed.square(sum) }
      let value = normalized(fixed.real(sum))
      return Real(isNegative: false, mantissa: value.mantissa, exponent: value.exponent + j)
    }
    var sum = Real.one
    var term = Real.one
    var i = 1
    while true {
      // The term's digits below 10^-(wide digits) do not reach the sum (about 1).
      let t = Working(digits: max(8, wide.digits + (term.magnitude ?? 0) + 2))
      term = t.divide(t.multiply(term, t.normalized(r)), i)
      if term.isZero { break }
      sum = wide.add(sum, term)
      if let m = term.magnitude, m < -(digits + 14) { break }
      i += 1
    }
    for _ in 0..<10 { sum = wide.multiply(sum, sum) }
    return normalized(
      Real(isNegative: false, mantissa: sum.mantissa, exponent: sum.exponent + j))
  }

  /// atanh(z) = z + z³/3 + z⁵/5 + … for |z| < 1 (fast for small |z|): in fixed point
  /// (``Fixed``) from |z| = 10^-20 on.
  /// - Complexity: O(d³) in the digits d (fewer terms the smaller |z|).
  func atanhSeries(_ z: Real) -> Real {
    let wide = Working(digits: digits + 6)
    if let m = z.magnitude, m >= -20, m < 0, let fixed = Fixed(digits: digits + 4 - m) {
      // In fixed point, units of 10^-(digits + 4 − ⌊log10 |z|⌋): the sum is about z, each term
      // adds an error of about two units.
      let zf = fixed.from(z)
      let z2 = fixed.square(zf)
      var power = zf
      var sum = zf
      var k: UInt32 = 1
      while true {
        power = fixed.multiply(power, z2)
        var term = power
        _ = term.formQuotient(dividingBy: 2 * k + 1)
        if term.isZero { break }
        sum = sum + term
        k += 1
      }
      return normalized(fixed.real(sum, negative: z.isNegative))
    }
    let z2 = wide.multiply(z, z)
    var power = z
    var sum = z
    var k = 1
    let top = z.magnitude ?? 0
    while true {
      // Each power only to the digits that still reach the sum (about z).
      let t = Working(digits: max(8, wide.digits - (top - (power.magnitude ?? top)) + 2))
      power = t.multiply(power, t.normalized(z2))
      let term = t.divide(power, 2 * k + 1)
      if term.isZero { break }
      sum = wide.add(sum, term)
      if let t = term.magnitude, let s = sum.magnitude, t < s - digits - 6 { break }
      k += 1
    }
    return normalized(sum)
  }

  /// ln x for x > 0.
  ///
  /// Near 1 (|x − 1| < 1/100) by 2·atanh((x − 1)/(x + 1)) directly, keeping relative accuracy.
  /// Otherwise x = m·10^e, m in [1, 10), is reduced three times by small integers of exactly
  /// known logarithms: m·10/t with t = ⌊10m⌋ (into [1, 1.1)), then ·100/u with u its first three
  /// digits (into [1, 1.01)), then ·1000/v with v its first four (into [1, 1.001)), so that the
  /// atanh series runs on |z| < 1/2000 (main halved m into [1, √2), |z| < 0.18: three times the
  /// terms). ln t, ln u and ln v are sums of tabled logarithms of primes
  /// (``Working/primeLogarithms``).
  /// - Complexity: O(d³) in the digits d (O(d) terms of O(d²) products).
  func ln(_ x: Real) -> Real {
    let wide = Working(digits: digits + 10)
    let one = Real.one
    let difference = wide.subtract(x, one)
    if difference.isZero { return .zero }
    if let d = difference.magnitude, d < -2 {
      let z = wide.divide(difference, wide.add(x, one))
      return normalized(wide.multiply(wide.atanhSeries(z), 2))
    }
    let e = x.magnitude!
    var m = Real(isNegative: false, mantissa: x.mantissa, exponent: x.exponent - e)
    var result = Real.zero
    var tens = e
    // t = ⌊10m⌋ in [10, 99], then u = ⌊100m⌋ in [100, 109], then v = ⌊1000m⌋ in [1000, 1009].
    for (scale, power) in [(10, 1), (100, 2), (1000, 3)] {
      let leading = Working.integerPart(
        Real(isNegative: false, mantissa: m.mantissa, exponent: m.exponent + power))
      if leading != scale {
        m = wide.divide(wide.multiply(m, scale), leading)
        result = wide.add(result, wide.normalized(Working.smallLogarithm(leading)))
        tens -= power
      }
    }
    let z = wide.divide(wide.subtract(m, one), wide.add(m, one))
    result = wide.add(result, wide.multiply(wide.atanhSeries(z), 2))
    if tens != 0 {
      let precise = Working(digits: digits + 10 + String(tens.magnitude).count)
      result = precise.add(result, precise.multiply(precise.ln10, tens))
    }
    return normalized(result)
  }

  /// ⌊x⌋ for 0 ≤ x < 2^62.
  static func integerPart(_ x: Real) -> Int {
    if x.exponent >= 0 { return Int(x.mantissa.shifted(by: x.exponent).uint128 ?? 0) }
    return Int(x.mantissa.truncated(by: -x.exponent).0.uint128 ?? 0)
  }

  /// ln n for n in 2…109 or 1000…1009, good to 140 digits.
  static func smallLogarithm(_ n: Int) -> Real {
    n < 110 ? smallLogarithms[n] : thousandLogarithms[n - 1000]
  }

  /// ln n for n in 0…109 (0 for n < 2), good to 140 digits: sums of ``primeLogarithms``.
  static let smallLogarithms: [Real] = (0..<110).map(logarithmFromPrimes)

  /// ln n for n in 1000…1009, good to 140 digits.
  static let thousandLogarithms: [Real] = (1000..<1010).map(logarithmFromPrimes)

  /// ln n as the sum of the logarithms of its prime factors (all in ``primeLogarithms``); 0 for
  /// n < 2.
  static func logarithmFromPrimes(_ n: Int) -> Real {
    let w = Working(digits: 150)
    var rest = n
    var sum = Real.zero
    for (prime, log) in primeLogarithms {
      while rest > 1, rest % prime == 0 {
        sum = w.add(sum, log)
        rest /= prime
      }
    }
    return sum
  }

  /// The natural logarithms of the primes below 110 and of 167, 251, 503 and 1009 (the factors
  /// of 1000…1009), to 141 significant digits (mpmath).
  static let primeLogarithms: [(Int, Real)] = [
    (
      2,
      "0.69314718055994530941723212145817656807550013436025525412068000949339362196969471560586332699641868754200148102057068573368552023575813055703"
    ),
    (
      3,
      "1.09861228866810969139524523692252570464749055782274945173469433363749429321860896687361575481373208878797002906595786574236800422593051982105"
    ),
    (
      5,
      "1.60943791243410037460075933322618763952560135426851772191264789147417898770765776463013387809317961079996630302171556289972400522932467619963"
    ),
    (
      7,
      "1.94591014905531330510535274344317972963708472958186118845939014993757986275206926778765849858787152699306169420585114091172375225767778684314"
    ),
    (
      11,
      "2.39789527279837054406194357796512929982170685393741717521856770913057362391323671307505470800263479141471572588813799852225556915859578739535"
    ),
    (
      13,
      "2.56494935746153673605348744156531860480526794476020711641904551066346466732441017939957466344048948876925819209276272163153215449198658701382"
    ),
    (
      17,
      "2.83321334405621608024953461787312653558820301258574478729723773788229257580093128091209486803750294751834826204718705729139759284194673836429"
    ),
    (
      19,
      "2.94443897916644046000902743188785353723737926129912881853796023640929270206419728871415838381573989579704063322075013634902195379068132061126"
    ),
    (
      23,
      "3.13549421592914969080675283181019611844238031484043574199863537748299324598479829819840109215299481435419721357133013689585872863503633780457"
    ),
    (
      29,
      "3.36729582998647402718327203236191160549451291392274407892167035164278078113785233329336711481785642264599958472516683472655830331117918460754"
    ),
    (
      31,
      "3.43398720448514624592916432454235721044993893048059197175671807247498141659755123221386483133608663057297693688903984481487054321435271299977"
    ),
    (
      37,
      "3.61091791264422444436809567103144716390007758716763616364491268119298974699036106539902153367216866078180895229089566738578157929844395474651"
    ),
    (
      41,
      "3.71357206670430780386676337303740758837641046939930163361926291025997861640565750596231714137198681103799048939537449184675063116423590603925"
    ),
    (
      43,
      "3.76120011569356242347284251334584703555913618488155541519168526492285917387298643853759199808399728689750568036809679154775955038191048362058"
    ),
    (
      47,
      "3.85014760171005858682095066977217370889605050202022403320050834680681821350580107261068975343474598095645157390101751072903275706164311500960"
    ),
    (
      53,
      "3.97029191355212183414446913902905777035997775291121760304812947001800463394348985853465994448592122984211382048109086301833621007767775711087"
    ),
    (
      59,
      "4.07753744390571945061605037371969762406334678933045452951203669705920011426542747735933995980263376901044387955588496228305125710651956003151"
    ),
    (
      61,
      "4.11087386417331124875138910342561474631568174308126106293738364641943980684494873118542920610010377302347289224263257059796525983033780950939"
    ),
    (
      67,
      "4.20469261939096605967007199636372275056693290322189533713778413077526850552808689663891418782102548453396219126466001419698720648332753636883"
    ),
    (
      71,
      "4.26267987704131542132945453251303409675957652671056610812142580202735150682423036596624332427263513354094635034572111238545755799639688206266"
    ),
    (
      73,
      "4.29045944114839112909210885743854257090475284487159766459569885716178997592059729327632932283485889425403142440139172174212010860468753849949"
    ),
    (
      79,
      "4.36944785246702149417294554148141092217354122442260962541217111755980606112443227814594036577407960663830281749583465259214701543466829497850"
    ),
    (
      83,
      "4.41884060779659792347547222329137045302931305666323637018794346293857898988899060583842729697057343422795273806345062907970222335648501183150"
    ),
    (
      89,
      "4.48863636973213983831781554066984921940466038713295936410669757728795389277945624644706355194947574301728816622678194714310095034438802222658"
    ),
    (
      97,
      "4.57471097850338282211672162170396171380891490265878135597623436876017729177818712534228274503427454992695068064837970662753799135355895969188"
    ),
    (
      101,
      "4.61512051684125945088419826691298915689088258719760474993126536170201188360234387150468010674195675784846117325841898205488979845365331482458"
    ),
    (
      103,
      "4.63472898822963577076860231505344082062826110837080316261123095903053120444779426959174597505210890558413360343559189199660066983218407473237"
    ),
    (
      107,
      "4.67282883446190617330439881702327700156314627613140755356011671924671736952999265655731870350161064991101627394786202037654242885406341670894"
    ),
    (
      109,
      "4.69134788222914370037731645220920165106034888350323115307487355468090328419516298174400627196145277249799286141073195969735753091939563804878"
    ),
    (
      167,
      "5.11799381241675510725975077674477936579732260261099159985968474679435759447953094820785416280582225791911387813396752060334736805354159511599"
    ),
    (
      251,
      "5.52545293913178388621858523900825324127934561558373793563569347743444140727820573508946270731397046461750450911961877109893640000690847382726"
    ),
    (
      503,
      "6.22059017009973920641876111563561003182571224066529956022431825225644815467652106412542034134642383692448411165169291044058086407706218894807"
    ),
    (
      1009,
      "6.91671502035360895649712082538042071522062864943562148655317990104728554204183467414636860543765731208648219851265960376493480215038574239330"
    ),
  ].map { ($0.0, Real(digits: $0.1)) }

  /// sin and cos of |r| ≤ π/4 (radians), by Taylor series; a series not asked for is skipped
  /// and its value returned as zero. For 10^-20 ≤ |r| < 1 in fixed point
  /// (``fixedSinCos(_:_:sine:cosine:)``).
  /// - Complexity: O(d³) in the digits d.
  func sinCos(_ r: Real, sine: Bool = true, cosine: Bool = true) -> (Real, Real) {
    // Units of 10^-(digits + 6 − ⌊log10 |r|⌋) below 0.1; of 10^-(digits + 8) above, where the
    // tripling multiplies the series' error (a few units a term) by at most 729.
    if let m = r.magnitude, m >= -20, m < 0,
      let fixed = Fixed(digits: m >= -1 ? digits + 8 : digits + 6 - m)
    {
      return fixedSinCos(r, fixed, sine: sine, cosine: cosine)
    }
    if let m = r.magnitude, m >= -1 {
      // From |r| = 0.1 on: the series of r/27 (|r/27| < 0.03 takes half the terms), then
      // tripled three times, sin 3a = sin a·(3 − 4 sin²a), cos 3a = cos a·(4 cos²a − 3), which
      // multiply the error by at most 27 and 729.
      let wide = Working(digits: digits + 4)
      var (s, c) = wide.sinCos(wide.divide(r, 27), sine: sine, cosine: cosine)
      for _ in 0..<3 {
        if sine {
          s = wide.multiply(s, wide.subtract(Real(3), wide.multiply(wide.multiply(s, s), 4)))
        }
        if cosine {
          c = wide.multiply(c, wide.subtract(wide.multiply(wide.multiply(c, c), 4), Real(3)))
        }
      }
      return (normalized(s), normalized(c))
    }
    let wide = Working(digits: digits + 8)
    let r2 = wide.multiply(r, r)
    var sin = sine ? r : .zero
    var cos = Real.one
    var term = r
    var k = 1
    let top = r.magnitude ?? 0
    while sine {
      // Each term only to the digits that still reach the sum (about r, or 1 for cos).
      let t = Working(digits: max(8, wide.digits - (top - (term.magnitude ?? top)) + 2))
      term = t.divide(t.multiply(term, t.normalized(r2)), (2 * k) * (2 * k + 1)).negated
      if term.isZero { break }
      sin = wide.add(sin, term)
      if let t = term.magnitude, let s = sin.magnitude, t < s - digits - 8 { break }
      k += 1
    }
    term = .one
    k = 1
    if !cosine { cos = .zero }
    while cosine {
      let t = Working(digits: max(8, wide.digits + (term.magnitude ?? 0) + 2))
      term = t.divide(t.multiply(term, t.normalized(r2)), (2 * k - 1) * (2 * k)).negated
      if term.isZero { break }
      cos = wide.add(cos, term)
      if let t = term.magnitude, t < -digits - 8 { break }
      k += 1
    }
    return (normalized(sin), normalized(cos))
  }

  /// ``sinCos(_:sine:cosine:)`` for 10^-20 ≤ |r| < 1, in fixed point `fixed`: from |r| = 0.1 on the
  /// series of r/27, then tripled three times (sin 3a = sin a·(3 − 4 sin²a),
  /// cos 3a = cos a·(4 cos²a − 3), which multiply the error by at most 27 and 729; 4 cos²a − 3
  /// stays above 0.5 for |a| ≤ 1/3).
  /// - Complexity: O(d³) in the digits d.
  func fixedSinCos(_ r: Real, _ fixed: Fixed, sine: Bool, cosine: Bool) -> (Real, Real) {
    let triple = r.magnitude! >= -1
    var a = fixed.from(r)
    if triple { _ = a.formQuotient(dividingBy: 27) }
    let a2 = fixed.square(a)
    var s = FixedValue()
    if sine {
      s = a
      var term = a
      var k: UInt32 = 1
      while true {
        term = fixed.multiply(term, a2)
        _ = term.formQuotient(dividingBy: (2 * k) * (2 * k + 1))
        if term.isZero { break }
        s = k % 2 == 1 ? s - term : s + term
        k += 1
      }
    }
    var c = FixedValue()
    if cosine {
      let one = fixed.one
      c = one
      var term = one
      var k: UInt32 = 1
      while true {
        term = fixed.multiply(term, a2)
        _ = term.formQuotient(dividingBy: (2 * k - 1) * (2 * k))
        if term.isZero { break }
        c = k % 2 == 1 ? c - term : c + term
        k += 1
      }
    }
    if triple {
      let three = fixed.one * 3
      for _ in 0..<3 {
        if sine { s = fixed.multiply(s, three - fixed.square(s) * 4) }
        if cosine { c = fixed.multiply(c, fixed.square(c) * 4 - three) }
      }
    }
    return (
      sine ? normalized(fixed.real(s, negative: r.isNegative)) : .zero,
      cosine ? normalized(fixed.real(c)) : .zero
    )
  }

  /// atan(y) in radians.
  func atan(_ y: Real) -> Real {
    if y.isZero { return .zero }
    let wide = Working(digits: digits + 8)
    var x = y.absolute
    var complement = false
    if Real.one < x {
      x = wide.divide(.one, x)
      complement = true
    }
    // Halve the angle twice: atan x = 2·atan(x / (1 + √(1 + x²))).
    for _ in 0..<2 {
      x = wide.divide(x, wide.add(.one, wide.squareRoot(wide.add(.one, wide.multiply(x, x)))))
    }
    let x2 = wide.multiply(x, x)
    var power = x
    var sum = x
    var k = 1
    while true {
      power = wide.multiply(power, x2).negated
      let term = wide.divide(power, 2 * k + 1)
      if term.isZero { break }
      sum = wide.add(sum, term)
      if let t = term.magnitude, let s = sum.magnitude, t < s - digits - 8 { break }
      k += 1
    }
    var result = wide.multiply(sum, 4)
    if complement { result = wide.subtract(wide.divide(wide.pi, 2), result) }
    return normalized(y.isNegative ? result.negated : result)
  }
}

extension Real: Comparable {
  /// −1, 0 or 1 as |a| is below, equal to or above |b|, exactly: by the magnitudes, then, for
  /// equal magnitudes, by the mantissas aligned at the smaller exponent.
  /// - Complexity: O(limbs + the exponents' difference).
  static func compareMagnitudes(_ a: Real, _ b: Real) -> Int {
    if a.isZero { return b.isZero ? 0 : -1 }
    if b.isZero { return 1 }
    let (ma, mb) = (a.magnitude!, b.magnitude!)
    if ma != mb { return ma < mb ? -1 : 1 }
    // Equal magnitudes: the exponents differ by less than the longer mantissa's digits.
    let exponent = min(a.exponent, b.exponent)
    let x = a.mantissa.shifted(by: a.exponent - exponent)
    let y = b.mantissa.shifted(by: b.exponent - exponent)
    return x < y ? -1 : (y < x ? 1 : 0)
  }

  /// Exact equality of the values (`Real(1)` equals 1.0 of any exponent).
  static func == (a: Real, b: Real) -> Bool {
    a.isNegative == b.isNegative && compareMagnitudes(a, b) == 0
  }

  /// Exact order of the values (a zero is never negative).
  static func < (a: Real, b: Real) -> Bool {
    if a.isNegative != b.isNegative { return a.isNegative }
    let order = compareMagnitudes(a, b)
    return a.isNegative ? order > 0 : order < 0
  }
}
