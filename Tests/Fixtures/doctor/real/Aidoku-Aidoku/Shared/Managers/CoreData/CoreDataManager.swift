








final class CoreDataManager {

    static let containerID = Bundle.main
        .infoDictionary?["ICLOUD_CONTAINER_ID"] as? String ?? "iCloud.\(Bundle.main.bundleIdentifier!)"

    static let shared = CoreDataManager()


























                let cloudDescription = self.container.persistentStoreDescriptions.first
            else { return }
            if self.shouldUseiCloud {
                cloudDescription.cloudKitContainerOptions = NSPersistentCloudKitContainerOptions(containerIdentifier: CoreDataManager.containerID)
            } else {
                cloudDescription.cloudKitContainerOptions = nil
            }
        })
    }

    lazy var container: NSPersistentCloudKitContainer = {
        let container = NSPersistentCloudKitContainer(name: "Aidoku")

        let storeDirectory = FileManager.default.applicationSupportDirectory












        localDescription.shouldInferMappingModelAutomatically = true

        if shouldUseiCloud {
            cloudDescription.cloudKitContainerOptions = NSPersistentCloudKitContainerOptions(
                containerIdentifier: CoreDataManager.containerID)
        } else {
            cloudDescription.cloudKitContainerOptions = nil
        }
