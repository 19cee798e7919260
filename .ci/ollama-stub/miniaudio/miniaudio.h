/*
 * Stand-in for the miniaudio single-file library, used only to compile
 * Ollama from its Go module: module zips drop vendored directories, and
 * miniaudio has no distribution package.
 *
 * Only llama.cpp's multimodal audio helper (tools/mtmd/mtmd-helper.cpp)
 * includes it. This header declares the few types and functions that file
 * calls and makes every decode and encode fail, so audio input is rejected
 * while text models are unaffected. It is not miniaudio and implements none
 * of its behaviour.
 */
#ifndef SERVEBENCH_MINIAUDIO_STUB_H
#define SERVEBENCH_MINIAUDIO_STUB_H

#include <stddef.h>

#ifndef MA_API
#define MA_API static
#endif

typedef unsigned int ma_uint32;
typedef unsigned long long ma_uint64;

typedef int ma_result;
#define MA_SUCCESS 0
#define MA_ERROR (-1)
#define MA_NOT_IMPLEMENTED (-29)

typedef enum {
    ma_format_unknown = 0,
    ma_format_u8 = 1,
    ma_format_s16 = 2,
    ma_format_s24 = 3,
    ma_format_s32 = 4,
    ma_format_f32 = 5
} ma_format;

typedef enum {
    ma_encoding_format_unknown = 0,
    ma_encoding_format_wav,
    ma_encoding_format_flac,
    ma_encoding_format_mp3,
    ma_encoding_format_vorbis
} ma_encoding_format;

typedef struct {
    ma_format format;
    ma_uint32 channels;
    ma_uint32 sampleRate;
} ma_decoder_config;

typedef struct {
    ma_decoder_config config;
} ma_decoder;

typedef struct {
    ma_encoding_format encodingFormat;
    ma_format format;
    ma_uint32 channels;
    ma_uint32 sampleRate;
} ma_encoder_config;

typedef struct {
    ma_encoder_config config;
} ma_encoder;

MA_API inline ma_decoder_config ma_decoder_config_init(ma_format format, ma_uint32 channels, ma_uint32 sampleRate)
{
    ma_decoder_config config;
    config.format = format;
    config.channels = channels;
    config.sampleRate = sampleRate;
    return config;
}

MA_API inline ma_result ma_decoder_init_memory(const void *data, size_t size, const ma_decoder_config *config, ma_decoder *decoder)
{
    (void)data;
    (void)size;
    if (decoder != NULL && config != NULL) {
        decoder->config = *config;
    }
    return MA_NOT_IMPLEMENTED;
}

MA_API inline ma_result ma_decoder_get_length_in_pcm_frames(ma_decoder *decoder, ma_uint64 *length)
{
    (void)decoder;
    if (length != NULL) {
        *length = 0;
    }
    return MA_NOT_IMPLEMENTED;
}

MA_API inline ma_result ma_decoder_read_pcm_frames(ma_decoder *decoder, void *frames, ma_uint64 frameCount, ma_uint64 *framesRead)
{
    (void)decoder;
    (void)frames;
    (void)frameCount;
    if (framesRead != NULL) {
        *framesRead = 0;
    }
    return MA_NOT_IMPLEMENTED;
}

MA_API inline ma_result ma_decoder_uninit(ma_decoder *decoder)
{
    (void)decoder;
    return MA_SUCCESS;
}

MA_API inline ma_encoder_config ma_encoder_config_init(ma_encoding_format encodingFormat, ma_format format, ma_uint32 channels, ma_uint32 sampleRate)
{
    ma_encoder_config config;
    config.encodingFormat = encodingFormat;
    config.format = format;
    config.channels = channels;
    config.sampleRate = sampleRate;
    return config;
}

MA_API inline ma_result ma_encoder_init_file(const char *path, const ma_encoder_config *config, ma_encoder *encoder)
{
    (void)path;
    if (encoder != NULL && config != NULL) {
        encoder->config = *config;
    }
    return MA_NOT_IMPLEMENTED;
}

MA_API inline ma_result ma_encoder_write_pcm_frames(ma_encoder *encoder, const void *frames, ma_uint64 frameCount, ma_uint64 *framesWritten)
{
    (void)encoder;
    (void)frames;
    (void)frameCount;
    if (framesWritten != NULL) {
        *framesWritten = 0;
    }
    return MA_NOT_IMPLEMENTED;
}

MA_API inline void ma_encoder_uninit(ma_encoder *encoder)
{
    (void)encoder;
}

#endif /* SERVEBENCH_MINIAUDIO_STUB_H */
