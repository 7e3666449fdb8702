extension CloudKitError {
    /// CloudKit answers a query for a type its schema lacks with BAD_REQUEST.
    package var isUnknownRecordType: Bool {
        if case .service(let code, _, let reason, _) = self, code == .badRequest {
            return reason.localizedCaseInsensitiveContains("record type")
        }
        return false
    }
}
