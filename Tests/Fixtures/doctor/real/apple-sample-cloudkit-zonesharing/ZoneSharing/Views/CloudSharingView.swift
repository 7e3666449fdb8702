







import CloudKit

/// This struct wraps a `UICloudSharingController` for use in SwiftUI.





    let container: CKContainer







        let sharingController = UICloudSharingController(share: share, container: container)










    final class Coordinator: NSObject, UICloudSharingControllerDelegate {
        func cloudSharingController(_ csc: UICloudSharingController, failedToSaveShareWithError error: Error) {



        func itemTitle(for csc: UICloudSharingController) -> String? {




