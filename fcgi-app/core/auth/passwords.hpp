#pragma once
// Password hashing for the web cabinet: Argon2id through libsodium's crypto_pwhash_str.
// Each hash takes `memlimit` bytes for its whole run, so a login flood could exhaust the
// process's memory; the hasher therefore runs at most `concurrency` hashes at once and a
// caller that finds no free slot within `wait` gets 503 "busy, try again".
// Thread-safe: one instance in Shared serves every pool thread.
#include <chrono>
#include <cstdint>
#include <semaphore>
#include <string>
#include <string_view>

namespace cabinet {

class PasswordHasher {
public:
    PasswordHasher(int64_t opslimit, int64_t memlimit, int64_t concurrency,
                   std::chrono::milliseconds wait = std::chrono::milliseconds(2000));
    PasswordHasher(const PasswordHasher&) = delete;
    PasswordHasher& operator=(const PasswordHasher&) = delete;

    // The self-describing "$argon2id$v=19$m=...,t=...,p=1$salt$hash" string.
    // Throws ApiError 503 when no slot frees in time.
    std::string hash(std::string_view password) const;
    // True when `password` matches `stored` (parameters are read from `stored`).
    // Throws ApiError 503 when no slot frees in time.
    bool verify(std::string_view stored, std::string_view password) const;
    // Burns the same time as verify() against a real hash with the current parameters:
    // called for unknown e-mails, so a login does not tell who has an account.
    void verify_dummy(std::string_view password) const;
    // The stored hash was made with other parameters than the current ones.
    bool needs_rehash(std::string_view stored) const;

    static constexpr size_t kMaxPasswordBytes = 512;  // 128 characters of 4-byte UTF-8

private:
    class Slot;

    unsigned long long opslimit_;
    size_t memlimit_;
    std::chrono::milliseconds wait_;
    mutable std::counting_semaphore<64> slots_;
    std::string dummy_hash_;  // made once here, with the current parameters
};

}  // namespace cabinet
