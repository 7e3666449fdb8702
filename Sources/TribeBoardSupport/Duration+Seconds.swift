extension Duration {
    /// The duration as a floating-point number of seconds, for rates, waits and reports.
    package var seconds: Double {
        let parts = components
        return Double(parts.seconds) + Double(parts.attoseconds) / 1e18
    }
}
