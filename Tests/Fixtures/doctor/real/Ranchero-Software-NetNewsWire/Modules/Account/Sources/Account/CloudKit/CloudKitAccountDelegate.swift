






































	private let syncDatabase: SyncDatabase

	private let container: CKContainer = {
		let orgID = Bundle.main.object(forInfoDictionaryKey: "OrganizationIdentifier") as! String
		return CKContainer(identifier: "iCloud.\(orgID).NetNewsWire")
	}()

	private let accountZone: CloudKitAccountZone







	private var lastNoChangeSyncDate: Date?
	private static let noChangeBackoffInterval: TimeInterval = 30 * 60

	// Set when CKContainer reports the iCloud account isn’t available — signed out,
	// restricted, or paused pending Terms and Conditions acceptance. While set, iCloud
	// stages are skipped (feeds still refresh) and one Error Log entry is posted.
	// Cleared when the system posts CKAccountChanged.
