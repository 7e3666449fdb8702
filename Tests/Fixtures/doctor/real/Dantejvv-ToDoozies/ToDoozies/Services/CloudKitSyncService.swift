











@MainActor
final class CloudKitSyncService: ObservableObject {
    private let container: CKContainer
    private let appState: AppState
    private var syncTimer: Timer?

    init(appState: AppState, containerIdentifier: String = "iCloud.dante.ToDoozies") {
        self.container = CKContainer(identifier: containerIdentifier)
        self.appState = appState

        setupNotifications()
