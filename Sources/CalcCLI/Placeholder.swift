public enum CalcCLIPlaceholder {}
