



// MARK: - CloudKit Manager
class CloudKitManager: ObservableObject {
    static let shared = CloudKitManager()
    private let container = CKContainer.default()
    private lazy var database = container.privateCloudDatabase
    
    @Published var iCloudStatus: String = "Checking..."
