#include "backup/archive.hpp"

#include <fcntl.h>
#include <unistd.h>
#include <zip.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

namespace cabinet::backup {
namespace {

std::string zip_message(int code) {
    zip_error_t e;
    zip_error_init_with_code(&e, code);
    std::string m = zip_error_strerror(&e);
    zip_error_fini(&e);
    return m;
}

std::string archive_error(zip_t* za) { return zip_error_strerror(zip_get_error(za)); }

struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

void write_archive(const std::string& zip_path, const std::string& dump_file, const std::string& password) {
    if (password.empty()) throw ArchiveError("the encryption password is empty");
    int err = 0;
    zip_t* za = zip_open(zip_path.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &err);
    if (!za) throw ArchiveError("cannot create " + zip_path + ": " + zip_message(err));
    zip_source_t* src = zip_source_file(za, dump_file.c_str(), 0, -1);
    if (!src) {
        const std::string m = archive_error(za);
        zip_discard(za);
        throw ArchiveError("cannot read " + dump_file + ": " + m);
    }
    const zip_int64_t idx = zip_file_add(za, kDumpEntry, src, ZIP_FL_ENC_UTF_8 | ZIP_FL_OVERWRITE);
    if (idx < 0) {
        const std::string m = archive_error(za);
        zip_source_free(src);
        zip_discard(za);
        throw ArchiveError("cannot add the dump to the archive: " + m);
    }
    if (zip_file_set_encryption(za, static_cast<zip_uint64_t>(idx), ZIP_EM_AES_256, password.c_str()) < 0 ||
        zip_set_file_compression(za, static_cast<zip_uint64_t>(idx), ZIP_CM_DEFLATE, 6) < 0) {
        const std::string m = archive_error(za);
        zip_discard(za);
        throw ArchiveError("cannot encrypt the archive: " + m);
    }
    if (zip_close(za) < 0) {
        const std::string m = archive_error(za);
        zip_discard(za);
        ::unlink(zip_path.c_str());
        throw ArchiveError("cannot write " + zip_path + ": " + m);
    }
}

void read_archive(const std::string& zip_path, const std::string& password, const std::string& out_file) {
    int err = 0;
    zip_t* za = zip_open(zip_path.c_str(), ZIP_RDONLY | ZIP_CHECKCONS, &err);
    if (!za) {
        if (err == ZIP_ER_NOENT || err == ZIP_ER_OPEN || err == ZIP_ER_READ)
            throw ArchiveError("cannot open " + zip_path + ": " + zip_message(err));
        throw ArchiveError(zip_path + " is not a complete backup archive (truncated or damaged: " + zip_message(err) + ")");
    }
    std::unique_ptr<zip_t, void (*)(zip_t*)> guard(za, [](zip_t* z) { zip_discard(z); });

    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat(za, kDumpEntry, 0, &st) < 0)
        throw ArchiveError(zip_path + " is not a cabinet backup (no " + kDumpEntry + " inside)");
    if (!(st.valid & ZIP_STAT_ENCRYPTION_METHOD) || st.encryption_method != ZIP_EM_AES_256)
        throw ArchiveError(zip_path + " is not an AES-256 encrypted cabinet backup");
    if (!(st.valid & ZIP_STAT_SIZE)) throw ArchiveError(zip_path + ": the dump's size is unknown (damaged archive)");

    zip_file_t* zf = zip_fopen_encrypted(za, kDumpEntry, 0, password.c_str());
    if (!zf) {
        const int code = zip_error_code_zip(zip_get_error(za));
        if (code == ZIP_ER_WRONGPASSWD || code == ZIP_ER_NOPASSWD)
            throw ArchiveError("wrong backup password for " + zip_path + " (BACKUP_ENCRYPTION_PASSWORD)");
        throw ArchiveError("cannot open the dump in " + zip_path + ": " + archive_error(za));
    }
    std::unique_ptr<zip_file_t, int (*)(zip_file_t*)> file_guard(zf, zip_fclose);

    Fd out;
    out.fd = ::open(out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    if (out.fd < 0) throw ArchiveError("cannot create " + out_file + ": " + std::strerror(errno));
    auto fail = [&](const std::string& m) {
        ::unlink(out_file.c_str());
        throw ArchiveError(m);
    };
    std::vector<char> buf(1 << 16);
    zip_uint64_t total = 0;
    for (;;) {
        const zip_int64_t n = zip_fread(zf, buf.data(), buf.size());
        if (n < 0) {
            const int code = zip_error_code_zip(zip_file_get_error(zf));
            if (code == ZIP_ER_WRONGPASSWD)
                fail("wrong backup password for " + zip_path + " (BACKUP_ENCRYPTION_PASSWORD)");
            fail(zip_path + " is damaged or the password is wrong: the dump does not verify (" +
                 zip_error_strerror(zip_file_get_error(zf)) + ")");
        }
        if (n == 0) break;
        total += static_cast<zip_uint64_t>(n);
        const char* p = buf.data();
        size_t left = static_cast<size_t>(n);
        while (left > 0) {
            const ssize_t w = ::write(out.fd, p, left);
            if (w < 0) {
                if (errno == EINTR) continue;
                fail("cannot write " + out_file + ": " + std::strerror(errno));
            }
            p += w;
            left -= static_cast<size_t>(w);
        }
    }
    if (total != st.size) fail(zip_path + " is damaged: the dump is shorter than recorded");
    if (::fsync(out.fd) != 0) fail("cannot write " + out_file + ": " + std::strerror(errno));
}

}  // namespace cabinet::backup
