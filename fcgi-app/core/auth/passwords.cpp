#include "auth/passwords.hpp"

#include <sodium.h>

#include <stdexcept>

#include "errors.hpp"

namespace cabinet {

// The settings' defaults are libsodium's INTERACTIVE limits (see config/settings.cpp).
static_assert(crypto_pwhash_OPSLIMIT_INTERACTIVE == 2);
static_assert(crypto_pwhash_MEMLIMIT_INTERACTIVE == 67108864);

// One concurrent-hash slot, released when the hash is done (also when it throws).
class PasswordHasher::Slot {
public:
    explicit Slot(const PasswordHasher& h) : sem_(h.slots_) {
        if (!sem_.try_acquire_for(h.wait_)) {
            throw retry_later(kBusyStatus, kBusyDetail, 1);
        }
    }
    ~Slot() { sem_.release(); }
    Slot(const Slot&) = delete;
    Slot& operator=(const Slot&) = delete;

private:
    std::counting_semaphore<64>& sem_;
};

PasswordHasher::PasswordHasher(int64_t opslimit, int64_t memlimit, int64_t concurrency, std::chrono::milliseconds wait)
    : opslimit_(static_cast<unsigned long long>(opslimit)),
      memlimit_(static_cast<size_t>(memlimit)),
      wait_(wait),
      slots_(static_cast<std::ptrdiff_t>(concurrency)) {
    if (concurrency < 1 || concurrency > 64) throw std::invalid_argument("password hash concurrency must be 1..64");
    if (opslimit_ < crypto_pwhash_OPSLIMIT_MIN || memlimit_ < crypto_pwhash_MEMLIMIT_MIN)
        throw std::invalid_argument("password hash limits below libsodium's minimum");
    // A random throwaway password, so the dummy hash matches nothing anyone can type.
    unsigned char secret[32];
    randombytes_buf(secret, sizeof secret);
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str(out, reinterpret_cast<const char*>(secret), sizeof secret, opslimit_, memlimit_) != 0)
        throw std::runtime_error("crypto_pwhash_str failed at start-up (out of memory?)");
    sodium_memzero(secret, sizeof secret);
    dummy_hash_ = out;
}

std::string PasswordHasher::hash(std::string_view password) const {
    Slot slot(*this);
    char out[crypto_pwhash_STRBYTES];
    if (crypto_pwhash_str(out, password.data(), password.size(), opslimit_, memlimit_) != 0)
        throw ApiError(503, "busy, try again");  // only fails when memory runs out
    return out;
}

bool PasswordHasher::verify(std::string_view stored, std::string_view password) const {
    // crypto_pwhash_str_verify wants a NUL-terminated string.
    const std::string copy(stored);
    Slot slot(*this);
    return crypto_pwhash_str_verify(copy.c_str(), password.data(), password.size()) == 0;
}

void PasswordHasher::verify_dummy(std::string_view password) const { (void)verify(dummy_hash_, password); }

bool PasswordHasher::needs_rehash(std::string_view stored) const {
    const std::string copy(stored);
    return crypto_pwhash_str_needs_rehash(copy.c_str(), opslimit_, memlimit_) != 0;
}

}  // namespace cabinet
