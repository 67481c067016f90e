# binding.gyp describes the addon's build for node-gyp, so that `node-gyp rebuild` (and
# `npm install` from source) produces build/Release/sessionkeep.node exactly as `make
# addon` does: the Go core built with -buildmode=c-shared. Needs Go (with cgo) and the
# node-api-headers package, a dependency of this one. Both run native/build-addon.sh.
{
  "targets": [
    {
      "target_name": "sessionkeep",
      "type": "none",
      "actions": [
        {
          "action_name": "go_build_c_shared",
          "inputs": ["<(module_root_dir)/native/build-addon.sh", "<(module_root_dir)/go.mod"],
          "outputs": ["<(module_root_dir)/build/Release/sessionkeep.node"],
          "action": ["sh", "<(module_root_dir)/native/build-addon.sh"]
        }
      ]
    }
  ]
}
