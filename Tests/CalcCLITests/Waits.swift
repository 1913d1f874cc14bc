import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// Waits until a file written from now on gets a later modification time than every file in
/// `directory` has, for the tests that need one journal written clearly after another
/// (``Journal/journals(in:)`` orders journals by modification time).
///
/// The kernel stamps a write with its coarse real-time clock (`CLOCK_REALTIME_COARSE`, which
/// ticks once a scheduler tick, every 1 to 10 ms), so this waits until that clock has passed the
/// newest file's time: a few milliseconds, where a fixed sleep had to allow for the coarsest
/// tick. An empty or missing directory needs no wait. Gives up after a second.
///
/// - Complexity: O(n) in the files of `directory`, once.
func waitForFileTimesToPass(filesIn directory: String) {
  let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
  var newest = timespec(tv_sec: 0, tv_nsec: 0)
  for name in names {
    var information = stat()
    guard stat(directory + "/" + name, &information) == 0 else { continue }
    let time = information.st_mtim
    if (time.tv_sec, time.tv_nsec) > (newest.tv_sec, newest.tv_nsec) { newest = time }
  }
  for _ in 0..<1000 {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME_COARSE, &now)
    if (now.tv_sec, now.tv_nsec) > (newest.tv_sec, newest.tv_nsec) { return }
    usleep(1000)
  }
}

/// Waits until process `pid` sleeps in the kernel function `function` (what its
/// `/proc/PID/wchan` names, such as `wait_for_partner` for an `open(2)` of a FIFO that waits for
/// the other end), at most two seconds; where the kernel does not tell (no such file, or `0`),
/// waits 200 ms instead.
func waitUntilAsleep(_ pid: pid_t, in function: String) {
  let path = "/proc/\(pid)/wchan"
  for _ in 0..<400 {
    guard let name = try? String(contentsOfFile: path, encoding: .utf8), name != "0" else {
      usleep(200_000)
      return
    }
    if name.trimmingCharacters(in: .whitespacesAndNewlines) == function { return }
    usleep(5_000)
  }
}
