


















    @Published var lastSyncDate: Date?
    @Published var error: Error?
    
    private let container = CKContainer(identifier: "iCloud.com.aguilarcarboni.media")
    private var cancellables = Set<AnyCancellable>()
    
    enum SyncStatus {
