




//  iOS is read-only: pulls synced data from CloudKit, never writes to Watch-owned records








    // iOS uses CloudKit-enabled container for automatic pull sync

    let modelContainer: ModelContainer = {







        let config = ModelConfiguration(


            cloudKitDatabase: .private(CloudKitConfig.containerID)


            return try ModelContainer(for: schema, configurations: [config])

            fatalError("Could not create iOS ModelContainer: \(error)")



    @State private var cloudKitStatus = CloudKitStatus()







        let context = modelContainer.mainContext




















        .modelContainer(modelContainer)


