



import Network

/// Service that monitors real CloudKit sync events from the underlying
/// NSPersistentCloudKitContainer that SwiftData uses internally.
@MainActor
final class CloudKitSyncService: ObservableObject {
    private static let logger = Logger(subsystem: "HardPhaseTracker", category: "CloudKitSync")



























    // MARK: - Real CloudKit event monitoring

    /// Observes NSPersistentCloudKitContainer.eventChangedNotification which fires
    /// for every import, export, and setup event — even when using SwiftData.
    private func startObservingCloudKitEvents() {
        eventObserver = NotificationCenter.default.addObserver(
            forName: NSPersistentCloudKitContainer.eventChangedNotification,
            object: nil,
            queue: nil
        ) { [weak self] notification in
            guard let event = notification.userInfo?[NSPersistentCloudKitContainer.eventNotificationUserInfoKey]
                    as? NSPersistentCloudKitContainer.Event else { return }

            Task { @MainActor [weak self] in
                self?.handleCloudKitEvent(event)

        }
    }

    private func handleCloudKitEvent(_ event: NSPersistentCloudKitContainer.Event) {
        let typeName: String
        switch event.type {
        case .import: typeName = "import"
