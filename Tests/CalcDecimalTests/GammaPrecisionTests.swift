import Testing

@testable import CalcDecimal

/// Γ at the precision of the retry: `Decimal34.gamma` with 110 working digits (what
/// `Decimal34.factorial` computes with when its 48-digit pass is too near a rounding midpoint)
/// against mpmath's Γ at 120 digits, agreeing to 95 significant digits. Stirling's series with
/// 20 terms above 60, as before, agreed to about 58 (its error in ln Γ is 6·10^-59).
@Suite struct GammaPrecisionTests {
  /// z, |Γ(z)| to 105 digits (mpmath 1.3.0, `mp.dps = 120`), and Γ(z)'s sign.
  static let cases: [(String, String, Bool)] = [
    (
      "3.7",
      "4.17065178379660316539360299861798372794044558098982929457224663246064226858136924115052690669099441538729",
      false
    ),
    (
      "0.5",
      "1.77245385090551602729816748334114518279754945612238712821380778985291128459103218137495065673854466541623",
      false
    ),
    (
      "12.25",
      "73711509.0467699490908458907163360477748793531761959384917700499076324088050986780355641547827147218727644",
      false
    ),
    (
      "-2.5",
      "0.945308720482941881225689324448610764158693043265273135047364154588219351781883830066640350260557154888654",
      true
    ),
    (
      "150.5",
      "4661072627097377918444637279984648786920938820856505230787802832815587969705137659339690331109189396381250000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000.0",
      false
    ),
    (
      "99.99",
      "891303524516917411812866327114701529499058530157396242940614181089420465814614582939965362912467574475954000000000000000000000000000000000000000000000000000.0",
      false
    ),
  ]

  @Test(arguments: cases)
  func retryIsGoodToNinetyFiveDigits(z: String, magnitude: String, negative: Bool) {
    let argument =
      z.hasPrefix("-") ? Real(digits: String(z.dropFirst())).negated : Real(digits: z)
    let value = Decimal34.gamma(Working(digits: 110), argument)
    let reference = Real(
      isNegative: negative, mantissa: Real(digits: magnitude).mantissa,
      exponent: Real(digits: magnitude).exponent)
    let difference = Working(digits: 140).subtract(value, reference)
    #expect(value.isNegative == negative)
    #expect(difference.isZero || difference.magnitude! <= reference.magnitude! - 95)
  }
}
