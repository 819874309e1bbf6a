//! Modular encryption: the algorithms and the metadata of encrypted columns and footers.

use std::borrow::Cow;

use crate::macros::{thrift_struct, thrift_union};

thrift_struct! {
    /// A column encrypted with the footer key.
    pub struct EncryptionWithFooterKey {}
}

thrift_struct! {
    /// A column encrypted with a key of its own.
    #[derive(Eq, Hash)]
    pub struct EncryptionWithColumnKey<'a> {
        /// The column's path in the schema.
        1: required path_in_schema: Vec<Cow<'a, str>>,
        /// What the key retriever needs to find the column key.
        2: optional key_metadata: Cow<'a, [u8]>,
    }
}

thrift_union! {
    /// How a column chunk is encrypted.
    #[derive(Eq, Hash)]
    pub enum ColumnCryptoMetaData<'a> {
        /// With the footer key.
        1: ENCRYPTION_WITH_FOOTER_KEY => EncryptionWithFooterKey(EncryptionWithFooterKey),
        /// With a column key.
        2: ENCRYPTION_WITH_COLUMN_KEY => EncryptionWithColumnKey(EncryptionWithColumnKey<'a>),
    }
}

thrift_struct! {
    /// The AES-GCM algorithm for every module.
    #[derive(Eq, Hash)]
    pub struct AesGcmV1<'a> {
        /// The AAD prefix, when stored in the file.
        1: optional aad_prefix: Cow<'a, [u8]>,
        /// The unique file identifier part of the AAD suffix.
        2: optional aad_file_unique: Cow<'a, [u8]>,
        /// Whether readers must supply an AAD prefix that the file does not store.
        3: optional supply_aad_prefix: bool,
    }
}

thrift_struct! {
    /// AES-GCM for metadata modules and AES-CTR for page data.
    #[derive(Eq, Hash)]
    pub struct AesGcmCtrV1<'a> {
        /// The AAD prefix, when stored in the file.
        1: optional aad_prefix: Cow<'a, [u8]>,
        /// The unique file identifier part of the AAD suffix.
        2: optional aad_file_unique: Cow<'a, [u8]>,
        /// Whether readers must supply an AAD prefix that the file does not store.
        3: optional supply_aad_prefix: bool,
    }
}

thrift_union! {
    /// The encryption algorithm of a file.
    #[derive(Eq, Hash)]
    pub enum EncryptionAlgorithm<'a> {
        /// AES-GCM everywhere.
        1: AES_GCM_V1 => AesGcmV1(AesGcmV1<'a>),
        /// AES-GCM for metadata, AES-CTR for pages.
        2: AES_GCM_CTR_V1 => AesGcmCtrV1(AesGcmCtrV1<'a>),
    }
}

thrift_struct! {
    /// What precedes the encrypted footer of a file whose footer is encrypted.
    #[derive(Eq, Hash)]
    pub struct FileCryptoMetaData<'a> {
        /// The encryption algorithm.
        1: required encryption_algorithm: EncryptionAlgorithm<'a>,
        /// What the key retriever needs to find the footer key.
        2: optional key_metadata: Cow<'a, [u8]>,
    }
}
