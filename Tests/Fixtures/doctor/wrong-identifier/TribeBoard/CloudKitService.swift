import CloudKit

/// The early build's service: its container identifier does not follow the bundle id.
final class CloudKitService {
    private let container = CKContainer(
        identifier: "iCloud.com.tribeboard.TribeBoard"
    )

    var database: CKDatabase { container.privateCloudDatabase }
}
