






import CloudKit
















    func windowScene(_ windowScene: UIWindowScene, userDidAcceptCloudKitShareWith cloudKitShareMetadata: CKShare.Metadata) {
        guard cloudKitShareMetadata.containerIdentifier == Config.containerIdentifier else {
            print("Shared container identifier \(cloudKitShareMetadata.containerIdentifier) did not match known identifier.")



        // Create an operation to accept the share, running in the app's CKContainer.
        let container = CKContainer(identifier: Config.containerIdentifier)


        debugPrint("Accepting CloudKit Share with metadata: \(cloudKitShareMetadata)")









                debugPrint("Accepted CloudKit share with type: \(shareRecordType)")





                debugPrint("Error accepting CloudKit Share: \(error)")




        container.add(operation)


