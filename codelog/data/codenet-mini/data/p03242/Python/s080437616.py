import sys
def resolve():  # 出力
    row = sys.stdin.readline().rstrip()
    print("".join(str(10 - int(length)) for length in row))
if __name__ == "__main__":
    resolve()
