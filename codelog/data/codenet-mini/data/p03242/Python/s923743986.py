# A - 999
def run():
    s = str(input())
    print(s.replace("1", "x").replace("9", "1").replace("x", "9"))


if __name__=="__main__":
    run()
