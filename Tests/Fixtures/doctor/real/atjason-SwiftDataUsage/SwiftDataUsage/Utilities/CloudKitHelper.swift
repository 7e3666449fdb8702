










  
  static func checkCloudKitStatus() async -> CKAccountStatus {
    do {
      return try await CKContainer.default().accountStatus()
    } catch {
      return .temporarilyUnavailable
    }
