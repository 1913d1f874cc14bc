// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "calc",
  products: [
    .library(name: "CalculatorEngine", targets: ["CalculatorEngine"]),
    .executable(name: "calc", targets: ["calc"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    // The calculator itself: keys, the brain, exact decimals, display, history. Foundation only.
    .target(name: "CalculatorEngine"),
    // GNU readline, wrapped by exactly one file of CalcCLI.
    .systemLibrary(
      name: "CReadline",
      providers: [.apt(["libreadline-dev"])]
    ),
    // Front ends as a library so that tests can drive them: line interpreter, batch runner, REPL.
    .target(
      name: "CalcCLI",
      dependencies: [
        "CalculatorEngine",
        "CReadline",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .executableTarget(name: "calc", dependencies: ["CalcCLI"]),
    .executableTarget(name: "calc-bench", dependencies: ["CalculatorEngine"]),
    .testTarget(
      name: "CalculatorEngineTests", dependencies: ["CalculatorEngine"], exclude: ["Fixtures"]),
    .testTarget(name: "CalcCLITests", dependencies: ["CalcCLI", "CalculatorEngine"]),
  ]
)
