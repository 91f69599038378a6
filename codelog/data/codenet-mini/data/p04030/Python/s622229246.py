import re

def compute():
    ys=input().strip()
    while re.search("[01]B", ys):
        ys=re.sub("[01]B", "", ys)
    # 答え
    print(ys.replace("B", ""))


compute()
