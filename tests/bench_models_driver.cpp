// SPDX-License-Identifier: MIT
// The C++ side of tests/python/test_models_reference.py: builds a whole model of bench/models, loads
// the weights and inputs that Python saved with torch.save, runs the model in eval mode and writes its
// outputs, its parameter count and the aten:: operators of one profiled forward; then one training
// forward and backward, whose loss, gradients and updated buffers it writes too.
//
//   bench_models_driver counts            parameter counts of the published configurations, as JSON
//   bench_models_driver run REQUEST.json  {"model": "resnet" | "bert", "config": {...}, "weights": FILE,
//                                          "inputs": FILE, "outputs": FILE}; prints a JSON report
#include "bench/detail/models/bert.hpp"
#include "bench/detail/models/resnet.hpp"
#include "bench/detail/models/weights.hpp"
#include "bench/profile.hpp"

#include "util/error.hpp"

#include <nlohmann/json.hpp>
#include <torch/torch.h>

#include <fstream>
#include <functional>
#include <iostream>

using namespace layerbench;
using namespace layerbench::bench::models;
using nlohmann::json;

namespace {

// {name: calls} of the aten:: operators of one call of `forward`, nested calls included.
json operator_calls(const std::function<void()>& forward)
{
  json calls = json::object();
  const auto profile = bench::profile_forward(forward, [] {}, bench::ProfileDevice::cpu);
  for (const auto& op : profile.operators) {
    calls[op.name] = op.calls;
  }
  return calls;
}

json counts()
{
  json result;
  result["resnet50"] = count_unique_parameters(*ResNet());
  for (const auto& [name, config] : {std::pair{"bert-base-cased", bert_base_cased()}, std::pair{"bert-large-cased", bert_large_cased()}}) {
    result[name] = count_unique_parameters(*BertModel(config));
    result[std::string(name) + "+heads"] = count_unique_parameters(*BertForPreTraining(config));
  }
  return result;
}

BertConfig bert_config(const json& fields)
{
  BertConfig config;
  fields.at("vocab_size").get_to(config.vocab_size);
  fields.at("hidden_size").get_to(config.hidden_size);
  fields.at("num_hidden_layers").get_to(config.num_hidden_layers);
  fields.at("num_attention_heads").get_to(config.num_attention_heads);
  fields.at("intermediate_size").get_to(config.intermediate_size);
  fields.at("max_position_embeddings").get_to(config.max_position_embeddings);
  fields.at("type_vocab_size").get_to(config.type_vocab_size);
  fields.at("layer_norm_eps").get_to(config.layer_norm_eps);
  fields.at("hidden_dropout_prob").get_to(config.hidden_dropout_prob);
  fields.at("attention_probs_dropout_prob").get_to(config.attention_probs_dropout_prob);
  return config;
}

// One training forward and backward of `loss`; its value, the gradients ("grad.<parameter>") and the
// buffers as training left them ("train.<buffer>").
void train_step(torch::nn::Module& model, const std::function<torch::Tensor()>& loss, NamedTensors& outputs)
{
  model.train();
  torch::AutoGradMode grad_mode(true);
  const auto value = loss();
  value.backward();
  outputs["train.loss"] = value.detach();
  for (const auto& item : model.named_parameters()) {
    outputs["grad." + item.key()] = item.value().grad();
  }
  for (const auto& item : model.named_buffers()) {
    outputs["train." + item.key()] = item.value();
  }
}

json run_resnet(const json& request, const NamedTensors& inputs, NamedTensors& outputs)
{
  ResNetOptions options;
  request.at("config").at("blocks").get_to(options.blocks);
  request.at("config").at("num_classes").get_to(options.num_classes);
  ResNet model(options);
  load_named_tensors(*model, read_named_tensors(request.at("weights").get<std::string>()));
  model->eval();
  const auto& images = inputs.at("images");
  outputs["logits"] = model(images);
  json report{{"parameters", count_unique_parameters(*model)},
              {"operators", {{"resnet", operator_calls([&] { model(images); })}}}};
  const auto& labels = inputs.at("labels");
  train_step(*model, [&] { return torch::nn::functional::cross_entropy(model(images), labels); }, outputs);
  return report;
}

json run_bert(const json& request, const NamedTensors& inputs, NamedTensors& outputs)
{
  BertForPreTraining model(bert_config(request.at("config")));
  load_named_tensors(*model, read_named_tensors(request.at("weights").get<std::string>()));
  model->eval();
  const auto& ids = inputs.at("input_ids");
  const auto plain = model->bert()(ids);
  outputs["last_hidden_state"] = plain.last_hidden_state;
  outputs["pooler_output"] = plain.pooler_output;
  const auto typed = model->bert()(ids, inputs.at("token_type_ids"));
  outputs["typed.last_hidden_state"] = typed.last_hidden_state;
  outputs["typed.pooler_output"] = typed.pooler_output;
  const auto heads = model(ids);
  outputs["prediction_logits"] = heads.prediction_logits;
  outputs["seq_relationship_logits"] = heads.seq_relationship_logits;
  const auto& masked_lm_labels = inputs.at("masked_lm_labels");
  const auto& next_sentence_labels = inputs.at("next_sentence_labels");
  outputs["loss"] = pretraining_loss(heads, masked_lm_labels, next_sentence_labels);
  json operators;
  operators["bert"] = operator_calls([&] { model->bert()(ids); });
  operators["pretraining"] = operator_calls([&] { pretraining_loss(model(ids), masked_lm_labels, next_sentence_labels); });
  json report{{"parameters", count_unique_parameters(*model->bert())},
              {"parameters_with_heads", count_unique_parameters(*model)},
              {"operators", operators}};
  const auto& types = inputs.at("token_type_ids");
  train_step(*model, [&] { return pretraining_loss(model(ids, types), masked_lm_labels, next_sentence_labels); }, outputs);
  return report;
}

json run(const std::string& request_file)
{
  std::ifstream in(request_file);
  const auto request = json::parse(in);
  torch::NoGradGuard no_grad;
  const auto inputs = read_named_tensors(request.at("inputs").get<std::string>());
  NamedTensors outputs;
  const auto model = request.at("model").get<std::string>();
  json report;
  if (model == "resnet") {
    report = run_resnet(request, inputs, outputs);
  } else if (model == "bert") {
    report = run_bert(request, inputs, outputs);
  } else {
    throw Error(request_file + ": unknown model '" + model + "' (resnet or bert)");
  }
  write_named_tensors(request.at("outputs").get<std::string>(), outputs);
  return report;
}

} // namespace

int main(int argc, char** argv)
{
  const std::vector<std::string> args(argv + 1, argv + argc);
  try {
    if (args.size() == 1 && args[0] == "counts") {
      std::cout << counts().dump(2) << "\n";
      return 0;
    }
    if (args.size() == 2 && args[0] == "run") {
      std::cout << run(args[1]).dump(2) << "\n";
      return 0;
    }
    std::cerr << "usage: bench_models_driver counts | run REQUEST.json\n";
    return 2;
  } catch (const std::exception& error) {
    const auto* torch_error = dynamic_cast<const c10::Error*>(&error);
    std::cerr << "bench_models_driver: error: " << (torch_error ? torch_error->what_without_backtrace() : error.what()) << "\n";
    return 1;
  }
}
