// swift-tools-version:6.0
// calc-bench (SPEC §7), a package of its own beside calc's, as swift-collections keeps its
// benchmarks: building calc does not build it, and it reaches the engine only through calc's
// products, as a program outside the package would. From the repository's folder:
//
//   swift build -c release                                        # calc itself (or `make`)
//   swift run -c release --package-path Benchmarks calc-bench …   # Sources/calc-bench/README.md
import PackageDescription

let package = Package(
  name: "calc-benchmarks",
  products: [
    .executable(name: "calc-bench", targets: ["calc-bench"])
  ],
  dependencies: [
    .package(name: "calc", path: "..")
  ],
  targets: [
    .executableTarget(
      name: "calc-bench",
      dependencies: [
        .product(name: "_CalcCLI", package: "calc"),
        .product(name: "CalcDecimal", package: "calc"),
        .product(name: "CalculatorEngine", package: "calc"),
        .product(name: "_CalcTestSupport", package: "calc"),
      ],
      exclude: ["README.md"])
  ]
)
