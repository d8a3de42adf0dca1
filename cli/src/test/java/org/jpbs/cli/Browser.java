package org.jpbs.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Assertions;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.TestWatcher;
import org.openqa.selenium.By;
import org.openqa.selenium.Dimension;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * A headless Chromium driven through chromedriver (Debian packages {@code chromium} and
 * {@code chromium-driver}; other paths with {@code JPBS_CHROMIUM} / {@code JPBS_CHROMEDRIVER}).
 * Missing browser: the test is skipped with a message, except under {@code CI=true} where it
 * fails (CI installs both, {@code .ci/run}). Screenshots go to {@code target/webui-screenshots/};
 * with {@code -Djpbs.update-docs=true} the pages' screenshots also replace those of
 * {@code docs/ui/} (shown in {@code docs/ui.md}).
 */
final class Browser implements AutoCloseable {
    static final Path SHOTS = Path.of("target", "webui-screenshots");
    /** The documentation's screenshots, written only with {@code -Djpbs.update-docs=true}. */
    static final Path DOC_SHOTS = Path.of("..", "docs", "ui");
    final ChromeDriver driver;

    private Browser(ChromeDriver driver) {
        this.driver = driver;
    }

    /** Starts a headless browser, or skips (fails in CI) when Chromium or chromedriver is missing. */
    static Browser start() {
        Path chromium = Path.of(System.getenv().getOrDefault("JPBS_CHROMIUM", "/usr/bin/chromium"));
        Path driver = Path.of(System.getenv().getOrDefault("JPBS_CHROMEDRIVER", "/usr/bin/chromedriver"));
        String missing = !Files.isExecutable(chromium) ? chromium.toString() : !Files.isExecutable(driver) ? driver.toString() : null;
        if (missing != null) {
            String msg = "browser tests need Chromium and chromedriver (apt-get install chromium chromium-driver): "
                    + missing + " not found";
            if ("true".equals(System.getenv("CI"))) {
                Assertions.fail(msg);
            }
            Assumptions.abort(msg);
        }
        ChromeOptions o = new ChromeOptions();
        o.setBinary(chromium.toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--ignore-certificate-errors", "--window-size=1280,900", "--no-first-run", "--disable-extensions",
                "--disable-background-networking", "--disable-sync", "--lang=en-US");
        o.setAcceptInsecureCerts(true);
        ChromeDriverService service = new ChromeDriverService.Builder().usingDriverExecutable(driver.toFile())
                .usingAnyFreePort().build();
        ChromeDriver d = new ChromeDriver(service, o);
        d.manage().timeouts().scriptTimeout(Duration.ofSeconds(20));
        return new Browser(d);
    }

    void open(String url) {
        driver.get(url);
    }

    WebElement find(String css) {
        return waitFor(d -> {
            List<WebElement> l = d.findElements(By.cssSelector(css));
            return l.isEmpty() || !l.get(0).isDisplayed() ? null : l.get(0);
        }, "element " + css);
    }

    /** Clicks the element, finding it again if the page re-rendered it meanwhile (a stale element). */
    void click(String css) {
        waitFor(d -> {
            try {
                find(css).click();
                return true;
            } catch (org.openqa.selenium.StaleElementReferenceException e) {
                return null;
            }
        }, "click on " + css);
    }

    List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /** Waits (15 s) until the element's text contains {@code text}; answers the text. */
    String waitText(String css, String text) {
        return waitFor(d -> {
            List<WebElement> l = d.findElements(By.cssSelector(css));
            return !l.isEmpty() && l.get(0).getText().contains(text) ? l.get(0).getText() : null;
        }, "'" + text + "' in " + css);
    }

    <T> T waitFor(Function<WebDriver, T> until, String what) {
        return waitFor(until, what, Duration.ofSeconds(15));
    }

    <T> T waitFor(Function<WebDriver, T> until, String what, Duration timeout) {
        return new WebDriverWait(driver, timeout).withMessage(() -> "waiting for " + what)
                .ignoring(org.openqa.selenium.StaleElementReferenceException.class).until(until);
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    void size(int width, int height) {
        driver.manage().window().setSize(new Dimension(width, height));
    }

    /** Emulates {@code prefers-color-scheme: dark} (or light) through the DevTools protocol. */
    void colorScheme(String scheme) {
        driver.executeCdpCommand("Emulation.setEmulatedMedia",
                Map.of("features", List.of(Map.of("name", "prefers-color-scheme", "value", scheme))));
    }

    /**
     * Saves a PNG of the page as {@code target/webui-screenshots/<name>.png} and, with
     * {@code -Djpbs.update-docs=true}, as {@code docs/ui/<name>.png}.
     */
    Path screenshot(String name) {
        Path p = save(SHOTS, name);
        if (p != null && Boolean.getBoolean("jpbs.update-docs")) {
            try {
                Files.createDirectories(DOC_SHOTS);
                Files.copy(p, DOC_SHOTS.resolve(name + ".png"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            } catch (IOException e) {
                System.err.println("screenshot " + name + " not copied to " + DOC_SHOTS + ": " + e);
            }
        }
        return p;
    }

    private Path save(Path dir, String name) {
        try {
            Files.createDirectories(dir);
            Path p = dir.resolve(name + ".png");
            Files.write(p, driver.getScreenshotAs(OutputType.BYTES));
            return p;
        } catch (IOException | RuntimeException e) {
            System.err.println("screenshot " + name + " not saved: " + e);
            return null;
        }
    }

    @Override
    public void close() {
        driver.quit();
    }

    /** Saves a screenshot named after a failed test (register with {@code @RegisterExtension}). */
    static final class ScreenshotOnFailure implements TestWatcher {
        private final java.util.function.Supplier<Browser> browser;

        ScreenshotOnFailure(java.util.function.Supplier<Browser> browser) {
            this.browser = browser;
        }

        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            Browser b = browser.get();
            if (b != null) {
                Path p = b.save(SHOTS, "FAILED-" + context.getRequiredTestClass().getSimpleName() + "-"
                        + context.getRequiredTestMethod().getName());
                System.err.println("screenshot of the failed test: " + p);
            }
        }
    }
}
