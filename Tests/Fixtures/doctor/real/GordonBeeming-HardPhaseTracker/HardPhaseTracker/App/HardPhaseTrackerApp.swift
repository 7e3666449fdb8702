






























        let result = AppModelContainerProvider.make(
            schema: schema,
            iCloudContainerId: "iCloud.com.gordonbeeming.HardPhaseTracker"
        )

        switch result {



































        let result = AppModelContainerProvider.make(
            schema: schema,
            iCloudContainerId: "iCloud.com.gordonbeeming.HardPhaseTracker"
        )

        switch result {
