//! A benchmarked process's memory, from /proc (Linux).

/// A memory figure of a process from /proc, in kB: `VmRSS` or `VmHWM`.
pub fn memory(pid: u32, field: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc/PID/status");
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|value| value.trim().trim_end_matches(" kB").parse().ok())
        .expect("a memory figure")
}

/// Resets a process's peak resident size (`VmHWM`) to its current one.
pub fn reset_peak(pid: u32) {
    std::fs::write(format!("/proc/{pid}/clear_refs"), "5").expect("/proc/PID/clear_refs");
}
