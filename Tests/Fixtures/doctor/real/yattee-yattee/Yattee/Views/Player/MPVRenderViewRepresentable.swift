












/// Uses a container view to properly swap the player view when backend changes.







        // Create a container that will hold the actual player view
        let container = MPVContainerView()
        container.backgroundColor = .black

        MPVLogging.log("MPVRenderViewRepresentable.makeUIView: creating container",




            container.setPlayerView(playerView)


        return container







        if let container = uiView as? MPVContainerView,

            container.setPlayerView(playerView)










/// Container view that properly manages player view swapping
private class MPVContainerView: UIView {

    private let containerID = UUID()

    // Track all living containers to enable view transfer on deinit
    private static var livingContainers = NSHashTable<MPVContainerView>.weakObjects()



        MPVContainerView.livingContainers.add(self)




        MPVContainerView.livingContainers.add(self)



        MPVLogging.log("MPVContainerView deinit",
            details: "id:\(containerID.uuidString.prefix(8)) hasPlayerView:\(currentPlayerView != nil)")

        // If we have the player view, transfer it to another living container

            // Find another container that's still alive and in the view hierarchy
            for container in MPVContainerView.livingContainers.allObjects {
                if container !== self && container.window != nil {
                    MPVLogging.log("MPVContainerView deinit: transferring player view to surviving container",
                        details: "from:\(containerID.uuidString.prefix(8)) to:\(container.containerID.uuidString.prefix(8))")
                    container.setPlayerView(playerView)



            MPVLogging.warn("MPVContainerView deinit: no surviving container to transfer player view to!")


            // deallocating container: otherwise SwiftUI keeps reconciling a








        // (weak ref can point to a view that's been stolen by another container)

            MPVLogging.log("MPVContainerView.setPlayerView: same view, skipping")



        // Check if player view is in another container
        let isInAnotherContainer = playerView.superview is MPVContainerView && playerView.superview !== self

        MPVLogging.log("MPVContainerView.setPlayerView: adding view",
            details: "container:\(containerID.uuidString.prefix(8)) wasInOtherContainer:\(isInAnotherContainer) new:\(ObjectIdentifier(playerView))")



            MPVLogging.log("MPVContainerView: removing old view from superview")





















/// Uses a container view to properly swap the player view when backend changes.







        // Create a container that will hold the actual player view
        let container = MPVContainerNSView()
        container.wantsLayer = true
        container.layer?.backgroundColor = NSColor.black.cgColor



            container.setPlayerView(playerView)




        container.onDidMoveToWindow = { [weak container, weak backend] in
            guard let container, let backend else { return }
            backend.setupPiPIfNeeded(in: container, playerState: playerState)


        return container




        if let container = nsView as? MPVContainerNSView,

            container.setPlayerView(playerView)







/// Container view that properly manages player view swapping on macOS.


final class MPVContainerNSView: NSView {

    private let containerID = UUID()


    var shortID: String { String(containerID.uuidString.prefix(8)) }

    /// Track all living containers so a container that releases the shared
    /// player view can hand it to another container instead of orphaning it.
    private static var livingContainers = NSHashTable<MPVContainerNSView>.weakObjects()

    /// The single shared render view most recently attached to any container.
    /// Lets a container that gains a window reclaim the view when it was






    /// Whether this container lives in the player window tracked by

    /// its containers may always claim the shared view, and nothing outside it








        MPVContainerNSView.livingContainers.add(self)




        MPVContainerNSView.livingContainers.add(self)











    /// When this container gains a window, adopt the shared player view if it
    /// is currently orphaned or parented in a container whose window is gone

    /// mini capsule unmounts before any windowed container exists ("no




        let owner = sharedView.superview as? MPVContainerNSView
        // Parented outside any container (e.g. mid-transfer) — leave it alone.











            "MPVContainerNSView[\(shortID)]: reclaiming stranded player view on window attach (previous owner: \(owner?.shortID ?? "none"), ownerWindowVisible: \(ownerWindowVisible), trackedWindow: \(isInTrackedPlayerWindow))",











        // re-parented between containers (mini bar ⇄ expanded sheet). When presenting
        // the sheet, the new container attaches the shared view (AppKit auto-removes it
        // from the old container) BEFORE this old container is torn down. So by the time
        // we get here, `currentPlayerView` may already live in another container. Only





                // Hand the shared view to another living container that still has a

                // updateNSView on the other container (e.g. the expanded player window


                if let target = MPVContainerNSView.findTransferTarget(excluding: self) {

                        "MPVContainerNSView[\(shortID)]: unmounting - transferring player view to container \(target.shortID) (windowVisible: \(target.window?.isVisible == true))",








                        "MPVContainerNSView[\(shortID)]: unmounting - no transfer target, parking player view (reclaimed when a container gains a window)",



                    MPVContainerNSView.scheduleSharedViewAdoptionRetry()







    /// Another living container that can host the shared player view.

    /// 1. A container whose window is currently visible.
    /// 2. A container in the window still tracked by ExpandedPlayerWindowManager



    ///    `reclaimSharedPlayerViewIfStranded` re-adopts it when a container

    private static func findTransferTarget(excluding source: MPVContainerNSView) -> MPVContainerNSView? {
        let candidates = livingContainers.allObjects.filter { $0 !== source && $0.window != nil }






                "MPVContainerNSView.findTransferTarget: no visible candidate, using container \(tracked.shortID) in tracked player window",









        // point to a view that was stolen by another container — e.g. the mini








           let owner = playerView.superview as? MPVContainerNSView,




            // Refuse to steal from a container in a visible window when this
            // container's own window is missing or not visible. The player




            // app restart). Exemption: containers in the tracked player window




                    "MPVContainerNSView[\(shortID)]: declined steal - view owned by visible container \(owner.shortID) (self window: \(window != nil), windowVisible: false, bounds: \(Int(bounds.width))x\(Int(bounds.height)))",









                    "MPVContainerNSView[\(shortID)]: declined steal - view owned by visible player window container \(owner.shortID) (self bounds: \(Int(bounds.width))x\(Int(bounds.height)))",








            "MPVContainerNSView[\(shortID)].setPlayerView: attaching (reclaim: \(playerView === currentPlayerView), previousSuperview: \(previousSuperview), window: \(window != nil), windowVisible: \(window?.isVisible == true), bounds: \(Int(bounds.width))x\(Int(bounds.height)), trackedWindow: \(isInTrackedPlayerWindow))",



















        MPVContainerNSView.sharedPlayerView = playerView







    /// needs it (parked with no owner, or owned by a container whose window
    /// lost visibility). This covers transitions with no container lifecycle
























            // container to adopt the view - not worth a warning per tick.









    /// Re-attach the shared player view to a container in a visible window when






        let owner = sharedView.superview as? MPVContainerNSView
        // Parented outside any container — not ours to manage.





        // Healthy when owned by a container in a visible window — unless the








        // Prefer the largest container in the tracked player window (skips


        let candidates = livingContainers.allObjects
        func area(_ container: MPVContainerNSView) -> CGFloat {
            container.bounds.width * container.bounds.height










                    "MPVContainerNSView.recoverSharedPlayerViewIfNeeded: no suitable container (owner: \(owner?.shortID ?? "none"), trackedWindowVisible: \(trackedWindowVisible))",






            "MPVContainerNSView.recoverSharedPlayerViewIfNeeded: re-attaching player view from \(owner?.shortID ?? "orphaned") to container \(target.shortID) (bounds: \(Int(target.bounds.width))x\(Int(target.bounds.height)), trackedWindow: \(target.window === trackedWindow))",








