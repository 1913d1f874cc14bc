import CalcCLI

CalcCommand.runMain()
