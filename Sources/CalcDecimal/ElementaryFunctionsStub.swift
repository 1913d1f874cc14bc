// TEMPORARY: the signatures of Decimal34+ElementaryFunctions (being written on another branch),
// so that the Scientific brain compiles before it lands. Removed when it does.

public enum AngleUnit: UInt8, Hashable, Sendable, CaseIterable { case degrees, radians, grads }
public enum FunctionError: Error, Hashable, Sendable {
  case invalidInput, divideByZero, undefined, overflow
}
public enum TrigFunction: UInt8, Hashable, Sendable, CaseIterable {
  case sin, cos, tan, sec, csc, cot, asin, acos, atan, asec, acsc, acot
  case sinh, cosh, tanh, sech, csch, coth, asinh, acosh, atanh, asech, acsch, acoth
}
extension Decimal34 {
  public static let pi = Decimal34(
    coefficient: 3_141_592_653_589_793_238_462_643_383_279_503, exponent: -33)
  public static let e = Decimal34(
    coefficient: 2_718_281_828_459_045_235_360_287_471_352_662, exponent: -33)
  public static func exp(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    .failure(.invalidInput)
  }
  public static func pow10(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    .failure(.invalidInput)
  }
  public static func pow2(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    .failure(.invalidInput)
  }
  public static func ln(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    .failure(.invalidInput)
  }
  public static func log10(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    .failure(.invalidInput)
  }
  public static func power(_ x: Decimal34, _ y: Decimal34) -> Result<Decimal34, FunctionError> {
    .failure(.invalidInput)
  }
  public static func root(_ x: Decimal34, index y: Decimal34) -> Result<Decimal34, FunctionError> {
    .failure(.invalidInput)
  }
  public static func log(_ x: Decimal34, base y: Decimal34) -> Result<Decimal34, FunctionError> {
    .failure(.invalidInput)
  }
  public static func floorMod(_ x: Decimal34, _ y: Decimal34) -> Result<Decimal34, FunctionError> {
    .failure(.invalidInput)
  }
  public static func cube(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    .success(x * x * x)
  }
  public static func cubeRoot(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    .failure(.invalidInput)
  }
  public static func factorial(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    .failure(.invalidInput)
  }
  public static func trig(_ f: TrigFunction, _ x: Decimal34, unit: AngleUnit) -> Result<
    Decimal34, FunctionError
  > { .failure(.invalidInput) }
  public static func dms(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    .failure(.invalidInput)
  }
  public static func degrees(_ x: Decimal34) -> Result<Decimal34, FunctionError> {
    .failure(.invalidInput)
  }
  public var floor: Decimal34 { self }
  public var ceiling: Decimal34 { self }
}
