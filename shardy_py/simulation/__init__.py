"""``shardy_py.simulate(module, *args)``: a sharded program partitioned (``shardy_py.partition``), run on
simulated devices by the interpreter and compared with the program run as one device, with the memory
each device held against ``shardy_py.cost``'s model: ``simulate`` (the run), ``report`` (its text) and
``command`` (``python -m shardy_py simulate``).  The pieces each device holds are cut and put back by
``shardy_py.interpreter.simulate_shards``, results compared by ``interpreter.simulate_compare``.
"""
