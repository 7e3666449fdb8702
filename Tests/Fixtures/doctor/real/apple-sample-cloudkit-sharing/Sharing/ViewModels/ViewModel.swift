



























    /// State directly observable by our view.
    @Published private(set) var state: State = .loading
    /// Use the specified iCloud container ID, which should also be present in the entitlements file.
    lazy var container = CKContainer(identifier: Config.containerIdentifier)
    /// This project uses the user's private database.
    private lazy var database = container.privateCloudDatabase
    /// Sharing requires using a custom record zone.






























































    /// - Parameters:
    ///   - contact: Contact to share.
    ///   - completionHandler: Handler to process a `success` or `failure` result.
    func fetchOrCreateShare(contact: Contact) async throws -> (CKShare, CKContainer) {
        guard let existingShare = contact.associatedRecord.share else {
            let share = CKShare(rootRecord: contact.associatedRecord)
            share[CKShare.SystemFieldKey.title] = "Contact: \(contact.name)"
