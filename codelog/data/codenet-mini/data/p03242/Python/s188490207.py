# ABC111 A
def main():
    S = input()
    print(S.replace("1", "a").replace("9", "1").replace("a", "9"))


main()
