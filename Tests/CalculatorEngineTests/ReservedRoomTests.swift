import CalcTestSupport
import Testing

@testable import CalculatorEngine

/// ``Session/reserveCapacity(forKeys:)``, the room a script of known size reserves: a capacity
/// hint that changes nothing a session shows or saves, before or after the lines it makes room
/// for.
@Suite struct ReservedRoomTests {
  static let lines = ["123.45*6.7=", "12+3=", "=", "9@", "m+", "7/0=", "5", "sci", "2^10="]

  /// The session and its saved script as `lines` leave them.
  static func run(_ lines: [String], reserving keys: Int?) throws -> (Session, String) {
    var session = Session()
    if let keys { session.reserveCapacity(forKeys: keys) }
    for line in lines {
      try session.perform(.keys(try KeyText.keys(in: line, startingIn: session.mode)))
    }
    session.history._checkInvariants()
    return (session, SessionScript.text(of: session.history))
  }

  /// The same lines with and without the room: the same states at every step, the same
  /// script; the room is there (the codes' capacity).
  @Test(arguments: [0, 1, 50, 10_000]) func reservingChangesNothingShown(keys: Int) throws {
    let lines = Array(repeating: Self.lines, count: 60).flatMap { $0 }
    let (plain, plainScript) = try Self.run(lines, reserving: nil)
    let (reserved, reservedScript) = try Self.run(lines, reserving: keys)
    #expect(reservedScript == plainScript)
    #expect(reserved.history.count == plain.history.count)
    for step in stride(from: 0, through: plain.history.count, by: 37) {
      #expect(reserved.history.state(at: step) == plain.history.state(at: step), "step \(step)")
    }
    #expect(reserved.state == plain.state)
  }

  /// Reserved room holds the keys that follow: the branch's storage does not move while they
  /// are applied.
  @Test func theRoomHoldsTheKeysThatFollow() throws {
    var session = Session()
    session.reserveCapacity(forKeys: 5_000)
    let capacity = session.history.storageBreakdown.keys
    for _ in 0..<400 { try session.perform(.keys(try KeyText.keys(in: "123.45*6.7="))) }
    #expect(session.history.storageBreakdown.keys == capacity)
    #expect(capacity >= 5_000)
  }

  /// Away from the end of the branch the next line starts a new branch: nothing is reserved.
  @Test func inThePastNothingIsReserved() throws {
    var session = Session()
    for line in Self.lines {
      try session.perform(.keys(try KeyText.keys(in: line, startingIn: session.mode)))
    }
    try session.perform(.goto(.step(3)))
    let before = session.history.storageBreakdown
    session.reserveCapacity(forKeys: 100_000)
    #expect(session.history.storageBreakdown.keys == before.keys)
  }
}
