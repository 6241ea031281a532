print("blurkit")
