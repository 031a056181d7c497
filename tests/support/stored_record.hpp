// For tests that need a damaged store: opens the store's RocksDB directly (no EventStore may have
// it open) and rewrites the stored record of one event (its 32-byte hash, then the encoded event),
// bypassing every check the store makes. Header-only: only targets that link the store use it.
#pragma once

#include "events/keys.hpp"

#include <gtest/gtest.h>
#include <rocksdb/db.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace tally::testing {

inline void rewrite_stored_record(const std::string& store_dir, std::uint64_t seq,
                                  const std::function<void(std::string& record)>& edit) {
  std::vector<rocksdb::ColumnFamilyDescriptor> families;
  for (const char* name : {"default", "log", "streams", "idempotency", "meta"}) {
    families.emplace_back(name, rocksdb::ColumnFamilyOptions());
  }
  std::vector<rocksdb::ColumnFamilyHandle*> handles;
  rocksdb::DB* db = nullptr;
  ASSERT_TRUE(rocksdb::DB::Open(rocksdb::DBOptions(), store_dir, families, &handles, &db).ok());
  rocksdb::ColumnFamilyHandle* log = handles[1];
  std::string record;
  EXPECT_TRUE(db->Get(rocksdb::ReadOptions(), log, events::keys::be64(seq), &record).ok());
  edit(record);
  EXPECT_TRUE(db->Put(rocksdb::WriteOptions(), log, events::keys::be64(seq), record).ok());
  for (auto* h : handles) db->DestroyColumnFamilyHandle(h);
  delete db;
}

}  // namespace tally::testing
