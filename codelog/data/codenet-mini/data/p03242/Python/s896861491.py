# AtCoder Beginner Contest 111 - AtCoder Beginner Contest 999
def f():
    pos = str(input())  # check
    print(pos.replace("1","a").replace("9","1").replace("a","9"))  # 入力


if __name__ == "__main__":
    f()
