import CalcCLI

CalcCommand.main()
