// Fixture (written for doctor's tests): the container is the first key of the Info.plist's
// NSUbiquitousContainers dictionary, read at run time, with a fallback.
import CloudKit

public enum iCloudConstants {
    public static let defaultProvenanceContainerIdentifier = "iCloud.org.provenance-emu.provenance"
    public static let containerIdentifier = (Bundle.main.infoDictionary?["NSUbiquitousContainers"] as? [String: AnyObject])?.keys.first ?? defaultProvenanceContainerIdentifier
    public static let container: CKContainer = CKContainer(identifier: containerIdentifier)
}

public final class CloudSyncManager {
    public static let shared = CloudSyncManager(container: iCloudConstants.container)
    init(container: CKContainer) {}
}
