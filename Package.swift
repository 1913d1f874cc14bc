// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "calc",
  products: [
    .library(name: "CalcDecimal", targets: ["CalcDecimal"]),
    .library(name: "CalculatorEngine", targets: ["CalculatorEngine"]),
    .executable(name: "calc", targets: ["calc"]),
    // For the nested package Benchmarks/Package.swift (calc-bench) alone, which reaches these
    // modules from outside this package: not API (hence the underscore).
    .library(name: "_CalcCLI", targets: ["CalcCLI"]),
    .library(name: "_CalcTestSupport", targets: ["CalcTestSupport"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    // The exact decimal: Decimal34, its arithmetic and its one half-even rounding. The standard
    // library only.
    .target(name: "CalcDecimal", exclude: ["README.md"]),
    // The calculator itself: keys, the brain, display, history. The standard library and
    // CalcDecimal only: no product target links Foundation (`.ci/run` checks).
    .target(name: "CalculatorEngine", dependencies: ["CalcDecimal"], exclude: ["README.md"]),
    // GNU readline, wrapped by the Readline files of CalcCLI (Readline.swift, Readline+*.swift).
    .systemLibrary(
      name: "CReadline",
      providers: [.apt(["libreadline-dev"])]
    ),
    // The front end's pure core: the line interpreter, the command table, listings, the live
    // display, help, styles and the output buffer. It imports neither Glibc nor Foundation
    // (`.ci/run` checks): it reaches files and the clipboard's program only through
    // the `Host` it is given.
    .target(
      name: "CalcCore", dependencies: ["CalcDecimal", "CalculatorEngine"],
      exclude: ["README.md"],
      // A script's lines cross from CalcCLI's runner into the interpreter here: its functions
      // are offered to the modules that call them for inlining, as within one module.
      swiftSettings: [.unsafeFlags(["-cross-module-optimization"])]),
    // The process's arguments, kept by a constructor as glibc passes them (argc, argv), which the
    // command line reads; it also answers the Swift runtime's question for them, which in the
    // static calc was a search through /proc/self/maps at every start
    // (Sources/CArguments/arguments.c).
    .target(name: "CArguments"),
    // The system edge and the front ends, as a library so that tests can drive them: every call
    // to the system (Platform.swift, files, journals, the pager, readline, signals), the REPL,
    // the batch runner and the command line. It re-exports CalcCore.
    .target(
      name: "CalcCLI",
      dependencies: [
        "CalcCore",
        "CalcDecimal",
        "CalculatorEngine",
        "CReadline",
        "CArguments",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      exclude: ["README.md"]
    ),
    .executableTarget(
      name: "calc", dependencies: ["CalcCLI"],
      // A position-dependent executable has its 73,000 relative relocations resolved at link
      // time instead of at every start (about 1 ms of a 4 ms start; Documentation/Performance.md).
      linkerSettings: [
        .unsafeFlags(
          ["-Xclang-linker", "-no-pie"], .when(platforms: [.linux], configuration: .release))
      ]),
    // The fuzz target (Scripts/fuzz.sh builds it with libFuzzer; built plainly, it replays inputs).
    .executableTarget(
      name: "calc-fuzz", dependencies: ["CalcCLI", "CalculatorEngine"], exclude: ["README.md"]),
    // Test oracles shared by the tests and the benchmark (Benchmarks/Package.swift): a seeded
    // random number generator and the book's replay model. Not part of the engine's API.
    .target(name: "CalcTestSupport", dependencies: ["CalculatorEngine"], exclude: ["README.md"]),
    // Examples/PaperTape: the engine embedded in a program of its own (Examples/README.md).
    .executableTarget(
      name: "paper-tape", dependencies: ["CalculatorEngine"], path: "Examples/PaperTape"),
    .testTarget(
      name: "CalcDecimalTests", dependencies: ["CalcDecimal", "CalcTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "CalculatorEngineTests",
      dependencies: ["CalcDecimal", "CalculatorEngine", "CalcTestSupport"],
      exclude: ["Fixtures"]),
    .testTarget(
      name: "CalcCLITests",
      dependencies: ["CalcCLI", "CalcCore", "CalculatorEngine", "CalcTestSupport"]),
  ]
)
